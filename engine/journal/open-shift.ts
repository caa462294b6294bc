import type { Tx } from '../store/port';

/**
 * The id of the shift open on this engine, read inside the journal's transaction after the head lock (so that a
 * shift's close, which appends too, is ordered with every entry): appendJournal puts it into each entry's
 * `data.shiftId`. Until shifts exist (table `shifts`, migration 0022) there is none: this answers null. The shifts
 * feature replaces this one function with its repository's lookup (e.g. `(await tx.shifts.open())?.id ?? null`).
 */
export const openShiftId: (tx: Tx) => Promise<string | null> = () => Promise.resolve(null);
