import type { WireJournalEntry } from '../contract/hub-journal';
import type { StoredJournalRow } from '../store/terminal-journal-repo';

/** A stored row as the wire entry it was (amount and data parsed back from their JSON). */
export function wireEntryOf(row: StoredJournalRow): WireJournalEntry {
  const amount: unknown = row.amount === null ? undefined : JSON.parse(row.amount);
  const data: unknown = JSON.parse(row.data);
  return {
    seq: row.seq,
    at: row.at,
    kind: row.kind,
    ref: row.ref,
    ...(isMoney(amount) && { amount }),
    data: isRecord(data) ? data : {},
    prevHash: row.prevHash,
    hash: row.hash,
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isMoney = (value: unknown): value is { amount: number; currency: string } =>
  isRecord(value) && typeof value.amount === 'number' && typeof value.currency === 'string';
