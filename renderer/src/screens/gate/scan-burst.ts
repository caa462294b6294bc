/**
 * Telling a keyboard-wedge scan from a person typing (the gate, issue #26). A scanner types a whole code in a burst —
 * a few milliseconds between characters — then Enter; a person leaves ~80 ms and more between keys. The gate uses
 * this where staff type on purpose (`Gate name`): a burst there is a scan that landed in the wrong field, and goes
 * to `Ticket code` instead of becoming the gate's name.
 */

/** the longest gap between two characters of one scan, ms (people, even fast typists, rarely stay under it) */
export const SCAN_GAP_MS = 30;
/** this many characters in a burst make a scan (two or three quick keys are a person's rollover) */
export const SCAN_MIN_CHARS = 4;

export interface ScanBurst {
  /** the field's value before the burst's first character */
  readonly before: string;
  /** the characters of the burst so far */
  readonly chars: string;
}

/**
 * The burst after one more printable character `key` at `at` (ms) into a field whose value is `value`: a new burst when
 * the gap to the last character is longer than SCAN_GAP_MS. `isScan` once it has SCAN_MIN_CHARS characters.
 */
export function nextBurst(previous: { burst: ScanBurst; at: number } | undefined, key: string, at: number, value: string): { burst: ScanBurst; at: number; isScan: boolean } {
  const continues = previous !== undefined && at - previous.at <= SCAN_GAP_MS;
  const burst = continues ? { before: previous.burst.before, chars: previous.burst.chars + key } : { before: value, chars: key };
  return { burst, at, isScan: burst.chars.length >= SCAN_MIN_CHARS };
}
