import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, parseSettings, SettingsError } from '../../../electron/settings';

/** The desktop app's `printers` setting (contract §12): handed to the engine, which checks each printer fully. */
describe('settings.printers', () => {
  it('defaults to none and keeps the listed printers in order', () => {
    expect(DEFAULT_SETTINGS.printers).toEqual([]);
    expect(parseSettings('{}').printers).toEqual([]);
    expect(parseSettings(JSON.stringify({ printers: ['tcp://192.168.1.50:9100', 'system:Kiosk TM-T88?paper=80'] })).printers).toEqual([
      'tcp://192.168.1.50:9100',
      'system:Kiosk TM-T88?paper=80',
    ]);
  });

  it.each([['tcp://192.168.1.50:9100'], [['lpt1']], [[42]], [['system:']]])('refuses %j, naming the setting', (printers) => {
    expect(() => parseSettings(JSON.stringify({ printers }))).toThrow(SettingsError);
    expect(() => parseSettings(JSON.stringify({ printers }))).toThrow(/settings\.printers/);
  });
});
