import type { Tx } from '../store/port';

/**
 * The id of the shift open on this engine, read inside the journal's transaction after the head lock (so that a
 * shift's close, which appends too, is ordered with every entry): appendJournal puts it into each entry's
 * `data.shiftId`. One open shift per database (store/shift-repo.ts); null when none is open.
 */
export const openShiftId = async (tx: Pick<Tx, 'shifts'>): Promise<string | null> => (await tx.shifts.openId()) ?? null;
