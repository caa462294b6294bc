import { describe, expect, it } from 'vitest';
import { parseServeArgs } from '../../../engine/cli/args';
import { parseSettings, SettingsError } from '../../../electron/settings';

/** `serve --require-shift` and the desktop setting `requireShift` (contract §14). */
describe('--require-shift and the requireShift setting', () => {
  it('serve: off unless --require-shift is given', () => {
    expect(parseServeArgs([])).toMatchObject({ requireShift: false });
    expect(parseServeArgs(['--require-shift'])).toMatchObject({ requireShift: true });
  });

  it('desktop: on by default in the box office, off by default in the kiosk, as set otherwise', () => {
    expect(parseSettings('{}').requireShift).toBe(true);
    expect(parseSettings(JSON.stringify({ mode: 'kiosk', staffPinHash: 'scrypt$a$b' })).requireShift).toBe(false);
    expect(parseSettings(JSON.stringify({ requireShift: false })).requireShift).toBe(false);
    expect(parseSettings(JSON.stringify({ mode: 'kiosk', staffPinHash: 'scrypt$a$b', requireShift: true })).requireShift).toBe(true);
  });

  it('desktop: refuses a requireShift that is not true or false, naming it', () => {
    expect(() => parseSettings('{"requireShift":"yes"}')).toThrow(SettingsError);
    expect(() => parseSettings('{"requireShift":"yes"}')).toThrow('settings.requireShift');
  });
});
