import { describe, expect, it } from 'vitest';
import { parseServeArgs, UsageError } from '../../../engine/cli/args';

/** `serve --allocation N` and `--offline-sales` (contract §10). */
describe('allocation options of serve', () => {
  it('keeps 10 places in hand and no offline sales by default', () => {
    expect(parseServeArgs([])).toMatchObject({ allocation: 10, offlineSales: false });
  });

  it('reads --allocation N (0 keeps none in advance) and --offline-sales', () => {
    expect(parseServeArgs(['--allocation', '0', '--offline-sales'])).toMatchObject({ allocation: 0, offlineSales: true });
    expect(parseServeArgs(['--allocation', '250'])).toMatchObject({ allocation: 250 });
  });

  it.each([['-1'], ['ten'], ['2.5'], ['100001']])('refuses --allocation %s', (value) => {
    expect(() => parseServeArgs(['--allocation', value])).toThrow(UsageError);
  });
});
