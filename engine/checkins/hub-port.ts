import type { CheckinCounts, CheckinResult } from '../contract/checkin';
import type { CheckinDirection } from '../domain/checkin';
import type { EngineError } from '../domain/errors';
import type { NameLanguage } from '../domain/names';

/** What a terminal asks its hub to decide: the check-in's id is made here, before the hub is asked. */
export interface HubCheckinRequest {
  readonly id: string;
  /** as scanned or typed: a signed code or a 20-character code */
  readonly code: string;
  readonly occurrenceId?: string | undefined;
  readonly direction: CheckinDirection;
  readonly gate: string;
}

/**
 * A terminal's hub, for check-ins (issue #26, contract §15; implemented by the sync helper in engine/sync/): at a
 * terminal whose upstream is a hub offering `checkins`, a check-in is decided there within the request while
 * online, so two gates never admit one ticket. `offline`: no answer (in time) — the terminal decides alone.
 */
export interface CheckinHub {
  /** the hub's decision: its answer, its refusal (to answer as it is), or offline */
  checkIn(input: HubCheckinRequest, language: NameLanguage): Promise<{ answer: CheckinResult } | { refused: EngineError } | { offline: true }>;
  /** the show's counts at the hub, or offline */
  counts(occurrenceId: string): Promise<CheckinCounts | { offline: true }>;
}
