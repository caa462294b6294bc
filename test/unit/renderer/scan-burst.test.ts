import { describe, expect, it } from 'vitest';
import { SCAN_GAP_MS, SCAN_MIN_CHARS, nextBurst } from '../../../renderer/src/screens/gate/scan-burst';

/** Feeds `text` into nextBurst with `gapMs` between keys, from a field holding `value`; answers the last step. */
function typed(text: string, gapMs: number, value = '') {
  let state: ReturnType<typeof nextBurst> | undefined;
  let at = 1_000;
  let current = value;
  const seen: boolean[] = [];
  for (const key of text) {
    state = nextBurst(state, key, at, current);
    seen.push(state.isScan);
    current += key;
    at += gapMs;
  }
  return { state, seen };
}

describe('telling a scan from a person typing (the gate name field)', () => {
  it(`is a scan from the ${SCAN_MIN_CHARS}th character a scanner types, and remembers the value before it`, () => {
    const { state, seen } = typed('K1.ABCDEF', 5, 'Door 2');
    expect(seen.indexOf(true)).toBe(SCAN_MIN_CHARS - 1);
    expect(state?.burst).toEqual({ before: 'Door 2', chars: 'K1.ABCDEF' });
  });

  it('is never a scan at a person\'s pace, nor a quick rollover of fewer keys', () => {
    expect(typed('Side door', 90).seen).not.toContain(true);
    expect(typed('ab', 5).seen).not.toContain(true);
    expect(typed('abc', SCAN_GAP_MS + 1).seen).not.toContain(true);
  });

  it('starts again after a pause: the value before is what the person typed', () => {
    let state = nextBurst(undefined, 'B', 0, '');
    state = nextBurst(state, 'X', 500, 'B');
    expect(state.burst).toEqual({ before: 'B', chars: 'X' });
  });
});
