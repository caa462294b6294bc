import { entryOfRow, nextRow, type JournalEntry, type JsonObject } from '../domain/journal';
import type { Money } from '../domain/money';
import type { Tx } from '../store/port';
import { sha256 } from './hash';
import { openShiftId } from './open-shift';

/** The kinds of entry (contract §14); what each one's `data` holds is in docs/shifts.md ("What each entry holds"). */
export type JournalKind = 'order' | 'cancellation' | 'payIn' | 'payOut' | 'shiftOpened' | 'shiftClosed';

export interface JournalInput {
  /** when it happened, epoch milliseconds (stored as ISO 8601 UTC with milliseconds) */
  readonly at: number;
  readonly kind: JournalKind;
  /** what it records: an order id, a movement id, a shift id */
  readonly ref: string;
  readonly amount?: Money;
  /** the entry's data without `shiftId` (appendJournal adds it) */
  readonly data: JsonObject;
  /**
   * the entry's shift, when the caller must name it rather than the open one (a shift's own opening or closing
   * while the shifts table does not say it is open); left out: the shift open on this engine, or null
   */
  readonly shiftId?: string | null;
}

/**
 * Appends one entry to the journal (contract §14) inside the caller's transaction — the one that makes what it
 * records, so both commit or neither does. Takes the journal head's lock (the last lock of every transaction:
 * key → cart → order → attempt → gift cards → inventory → journal head), reads the head and the open shift after
 * it, and stores the next entry: seq = head + 1, prevHash = the head's hash, `data.shiftId` = the open shift's id
 * (or `input.shiftId` when given). Call it as late in the transaction as possible: on PostgreSQL every appender
 * waits for the head until this transaction commits. Answers the entry as the API shows it.
 */
export async function appendJournal(tx: Tx, input: JournalInput): Promise<JournalEntry> {
  await tx.locks.journalHead();
  const head = await tx.journal.head();
  if (!head) throw new Error('the journal has no head row (journal_head): the database was changed by hand');
  const shiftId = input.shiftId !== undefined ? input.shiftId : await openShiftId(tx);
  const row = nextRow(head, {
    at: new Date(input.at).toISOString(),
    kind: input.kind,
    ref: input.ref,
    ...(input.amount !== undefined && { amount: input.amount }),
    data: { ...input.data, shiftId },
  }, sha256);
  await tx.journal.append(row);
  const entry = entryOfRow(row);
  if (!entry) throw new Error(`journal entry ${row.seq} cannot be read back`);
  return entry;
}
