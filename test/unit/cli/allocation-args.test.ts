import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseServeArgs, UsageError } from '../../../engine/cli/args';
import { hashPin } from '../../../engine/staff/pin';

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

/** `serve --allocation-cap` and the staff PIN's sources (issue #22). */
describe('the hub cap per terminal, and the staff PIN', () => {
  it('caps a terminal at 25 % of an item, at least 10 places, by default; takes P% or N places', () => {
    expect(parseServeArgs([]).allocationCap).toEqual({ percent: 25, floor: 10 });
    expect(parseServeArgs(['--allocation-cap', '40%']).allocationCap).toEqual({ percent: 40, floor: 10 });
    expect(parseServeArgs(['--allocation-cap', '200']).allocationCap).toEqual({ places: 200 });
  });

  it.each([['0%'], ['101%'], ['0'], ['-5'], ['ten'], ['%']])('refuses --allocation-cap %s', (value) => {
    expect(() => parseServeArgs(['--allocation-cap', value])).toThrow(UsageError);
  });

  it('takes the PIN hash from KASSA_STAFF_PIN_HASH, else --staff-pin-file (the hash, or the line npm run staff-pin prints); none: the engine makes one', () => {
    const hash = hashPin('1357');
    const dir = mkdtempSync(join(tmpdir(), 'kassa-pin-args-'));
    try {
      const plain = join(dir, 'plain');
      const json = join(dir, 'json');
      const junk = join(dir, 'junk');
      writeFileSync(plain, `${hash}\n`);
      writeFileSync(json, `${JSON.stringify({ staffPinHash: hash })}\n`);
      writeFileSync(junk, '1357\n');
      expect(parseServeArgs([]).staffPinHash).toBeUndefined();
      expect(parseServeArgs([], { KASSA_STAFF_PIN_HASH: hash }).staffPinHash).toBe(hash);
      expect(parseServeArgs(['--staff-pin-file', plain]).staffPinHash).toBe(hash);
      expect(parseServeArgs(['--staff-pin-file', json]).staffPinHash).toBe(hash);
      expect(parseServeArgs(['--staff-pin-file', junk], { KASSA_STAFF_PIN_HASH: hash }).staffPinHash).toBe(hash);
      // a PIN in clear is no hash: refused, never taken as one
      expect(() => parseServeArgs(['--staff-pin-file', junk])).toThrow(UsageError);
      expect(() => parseServeArgs(['--staff-pin-file', join(dir, 'missing')])).toThrow(UsageError);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
