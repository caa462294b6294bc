import { createHash } from 'node:crypto';
import type { TestEngine } from './engine';

/** Reading the journal (contract §14) through the API, and recomputing hashes independently of the engine's code. */

export interface Money { amount: number; currency: string }

export interface JournalEntry {
  seq: number;
  at: string;
  kind: string;
  ref: string;
  amount?: Money;
  data: Record<string, unknown> & { shiftId: string | null };
  prevHash: string;
  hash: string;
}

export type Verdict = { ok: true; entries: number; head: string } | { ok: false; firstBadSeq: number; reason: string };

export const ZERO_HASH = '0'.repeat(64);

/** Every entry of the journal, page by page (admin key). */
export async function journalEntries(engine: TestEngine, pageSize = 1000): Promise<JournalEntry[]> {
  const all: JournalEntry[] = [];
  let after = 0;
  for (;;) {
    const page = await engine.request<{ data: JournalEntry[]; nextAfter?: number }>('GET', `/journal?after=${after}&limit=${pageSize}`);
    if (page.status !== 200) throw new Error(`GET /journal answered ${page.status}: ${JSON.stringify(page.body)}`);
    all.push(...page.body.data);
    if (page.body.nextAfter === undefined) return all;
    after = page.body.nextAfter;
  }
}

/** GET /journal/verify's verdict. */
export async function verifyJournal(engine: TestEngine): Promise<Verdict> {
  const answer = await engine.request<{ data: Verdict }>('GET', '/journal/verify');
  if (answer.status !== 200) throw new Error(`GET /journal/verify answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body.data;
}

/** Canonical JSON written here again from the contract's words (keys sorted at every depth, no spaces). */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** An entry's hash as an auditor computes it: sha256hex(prevHash + canonical(entry without hash)). */
export function recomputedHash(entry: JournalEntry): string {
  const { hash: _hash, ...rest } = entry;
  void _hash;
  return createHash('sha256').update(entry.prevHash + canonical(rest), 'utf8').digest('hex');
}
