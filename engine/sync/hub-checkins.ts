import Value from 'typebox/value';
import { CheckinCounts, CheckinResult } from '../contract/checkin';
import type { CheckinHub } from '../checkins/hub-port';
import { hubRefusal } from './hub-gift-cards';
import { createUpstream, dataOf, errorOf, type UpstreamAnswer } from './upstream';

/**
 * A terminal's check-ins at its hub (issue #26, contract §15 and §10): while the hub answers, a check-in is decided
 * there within the gate's request (POST /hub/checkins with the terminal's sync key), so two gates never admit one
 * ticket; the show's counts are the hub's (GET /hub/occurrences/{id}/checkins). A gate must answer fast, so the
 * hub gets HUB_CHECKIN_TIMEOUT_MS; no answer in time — or no connection, a 5xx, a refused key, a hub without check-ins
 * — is `offline`, and the gate decides alone (its check-in goes to the hub later, checkin-sender.ts). When the sync
 * worker already knows the hub is offline, or that it offers no check-ins, nothing is sent at all.
 */

/** How long a gate waits for the hub's decision before it decides alone. */
export const HUB_CHECKIN_TIMEOUT_MS = 1500;

/**
 * After a check-in the hub did not answer (in time), the gates of this terminal decide alone for this long before
 * the hub is asked again: during an outage only one check-in in this span waits out the timeout, not every one.
 */
export const HUB_CHECKIN_RECHECK_MS = 5000;

/** What the sync worker knows of the hub. */
export interface CheckinLink {
  /** false: the hub has answered nothing for a while (or refuses the key); null: not known yet */
  online(): boolean | null;
  /** the hub offers `checkins` (its capabilities); null: not asked yet */
  offered(): boolean | null;
  /** when the hub last answered the worker (epoch ms; 0: not yet) */
  lastSuccessAt(): number;
}

const OFFLINE = { offline: true } as const;

/** An answer that means the hub cannot decide now (rather than a decision of its own). */
function unusable(answer: UpstreamAnswer): boolean {
  if (answer.status === 0 || answer.status >= 500 || answer.status === 401 || answer.status === 403 || answer.status === 429) return true;
  if (answer.status !== 404) return false;
  // 404 is a decision (an unknown ticket or show) only with its code; otherwise the hub has no such route
  const code = errorOf(answer)?.code;
  return code !== 'TICKET_NOT_FOUND' && !(code === 'RESOURCE_NOT_FOUND' && paramOf(answer) === 'occurrenceId');
}

function paramOf(answer: UpstreamAnswer): unknown {
  const body = answer.body;
  if (typeof body !== 'object' || body === null || !('error' in body) || typeof body.error !== 'object' || body.error === null) return undefined;
  return 'param' in body.error ? body.error.param : undefined;
}

/** The hub's check-ins, asked within a gate's request with the terminal's upstream key. */
export function createHubCheckins(options: { url: string; key: string; link: CheckinLink; timeoutMs?: number }): CheckinHub {
  const hub = createUpstream({ url: options.url, key: options.key, timeoutMs: options.timeoutMs ?? HUB_CHECKIN_TIMEOUT_MS });
  let silentSince = 0;
  // asked again once the recheck span has passed, or as soon as the worker heard from the hub since
  const quiet = (): boolean => Date.now() < silentSince + HUB_CHECKIN_RECHECK_MS && options.link.lastSuccessAt() <= silentSince;
  const reachable = (): boolean => !quiet() && options.link.online() !== false && options.link.offered() !== false;
  /** the hub answered nothing usable: the gates decide alone for a while */
  const silent = (answer: UpstreamAnswer): typeof OFFLINE => {
    if (answer.status === 0 || answer.status >= 500) silentSince = Date.now();
    return OFFLINE;
  };
  return {
    async checkIn(input, language) {
      if (!reachable()) return OFFLINE;
      const body = { id: input.id, code: input.code, direction: input.direction, gate: input.gate, ...(input.occurrenceId !== undefined && { occurrenceId: input.occurrenceId }) };
      const answer = await hub.postWith('/hub/checkins', body, { 'accept-language': language });
      if (unusable(answer)) return silent(answer);
      if (answer.status === 201) {
        const data = dataOf<unknown>(answer);
        return Value.Check(CheckinResult, data) ? { answer: data } : OFFLINE;
      }
      const refused = hubRefusal(answer);
      // a code this engine does not know (a newer hub): the hub cannot be understood, so the gate decides alone
      return refused.code === 'UPSTREAM_UNAVAILABLE' ? OFFLINE : { refused };
    },
    async counts(occurrenceId) {
      if (!reachable()) return OFFLINE;
      const answer = await hub.get(`/hub/occurrences/${encodeURIComponent(occurrenceId)}/checkins`);
      const data = answer.status === 200 ? dataOf<unknown>(answer) : undefined;
      return Value.Check(CheckinCounts, data) ? data : silent(answer);
    },
  };
}
