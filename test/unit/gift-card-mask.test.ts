import { describe, expect, it } from 'vitest';
import { maskCode } from '../../engine/printing/document';

/** A receipt prints a gift card's code masked (issue #24): its last 4 characters, never the whole code. */
describe('maskCode', () => {
  it('shows the last 4 characters of a code as the engine issues it', () => {
    expect(maskCode('ABCDEFGHJKMNPQRSTVWX')).toBe('****TVWX');
  });

  it('never prints a short code whole: at most half of it', () => {
    expect(maskCode('ABCD')).toBe('****CD');
    expect(maskCode('ABC')).toBe('****C');
    expect(maskCode('A')).toBe('****');
    expect(maskCode('ABCDEFG')).toBe('****EFG');
  });
});
