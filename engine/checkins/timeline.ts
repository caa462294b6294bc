import type { CheckinRow, PresenceRow } from '../store/checkin-repo';

/**
 * A ticket's check-ins in the order they happened (issue #26): at a hub, a terminal's offline check-ins arrive late
 * and, across terminals, in any order, so where a ticket is and whether an "in" was a second entry are read from its
 * check-ins ordered by time (the repository's `history`), never from the order the hub heard of them.
 */

/** Where the ticket is after these check-ins (in time order): inside after an "in"; when and where it last went in. */
export function presenceOfHistory(history: readonly CheckinRow[]): PresenceRow | undefined {
  const last = history.at(-1);
  if (last === undefined) return undefined;
  let lastIn: CheckinRow | undefined;
  for (const checkin of history) if (checkin.direction === 'in') lastIn = checkin;
  return { occurrenceId: last.occurrenceId, inside: last.direction === 'in', inAt: lastIn?.at ?? last.at, gate: lastIn?.gate ?? last.gate };
}

/** Two entries with no exit between them: `second` came in while the ticket was inside since `first`. */
export interface DuplicateEntry {
  readonly first: CheckinRow;
  readonly second: CheckinRow;
}

/** The duplicate entries of these check-ins (in time order) that involve one of `fresh` (the ids just recorded). */
export function duplicateEntries(history: readonly CheckinRow[], fresh: ReadonlySet<string>): DuplicateEntry[] {
  const found: DuplicateEntry[] = [];
  history.forEach((second, i) => {
    const first = history[i - 1];
    if (first === undefined || first.direction !== 'in' || second.direction !== 'in') return;
    if (fresh.has(first.id) || fresh.has(second.id)) found.push({ first, second });
  });
  return found;
}
