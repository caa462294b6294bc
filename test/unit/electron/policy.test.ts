import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAllowedNavigation } from '../../../electron/navigation';
import { DEFAULT_SETTINGS, loadSettings, parseSettings, SettingsError } from '../../../electron/settings';
import { createPinGuard, hashPin, verifyPin } from '../../../engine/staff/pin';

describe('navigation policy', () => {
  const engine = ['http://127.0.0.1:41234'];
  it.each([
    ['http://127.0.0.1:41234/', true],
    ['http://127.0.0.1:41234/psp/challenges/chl_x', true],
    ['http://127.0.0.1:41235/', false],
    ['http://localhost:41234/', false],
    ['https://evil.example/', false],
    ['file:///etc/passwd', false],
    ['javascript:alert(1)', false],
    ['data:text/html,hi', false],
    ['not a url', false],
  ])('%s → %s', (url, allowed) => expect(isAllowedNavigation(url, engine)).toBe(allowed));
});

describe('staff PIN', () => {
  it('is stored as a salted scrypt hash and verified in constant time', () => {
    const stored = hashPin('2468');
    expect(stored).toMatch(/^scrypt\$[\w-]+\$[\w-]+$/);
    expect(stored).not.toContain('2468');
    expect(hashPin('2468')).not.toBe(stored); // salted
    expect(verifyPin('2468', stored)).toBe(true);
    expect(verifyPin('2469', stored)).toBe(false);
    expect(verifyPin('', stored)).toBe(false);
    expect(verifyPin('2468', undefined)).toBe(false);
    expect(verifyPin('2468', 'plain$2468')).toBe(false);
  });
  it.each(['12', 'abcd', '1234567890123'])('refuses %j as a PIN', (pin) => expect(() => hashPin(pin)).toThrow());

  it('locks the staff exit for 5 minutes after 5 wrong PINs', () => {
    const guard = createPinGuard();
    for (let i = 0; i < 4; i += 1) guard.failed(1_000);
    expect(guard.locked(1_000)).toBe(false);
    guard.failed(1_000);
    expect(guard.locked(1_000)).toBe(true);
    expect(guard.locked(1_000 + 5 * 60 * 1000 - 1)).toBe(true);
    expect(guard.locked(1_000 + 5 * 60 * 1000)).toBe(false);
  });
});

describe('settings.json', () => {
  it('defaults to a box office with its own engine when there is no file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kassa-settings-'));
    try {
      expect(loadSettings(join(dir, 'settings.json'))).toEqual(DEFAULT_SETTINGS);
      writeFileSync(join(dir, 'settings.json'), JSON.stringify({ mode: 'boxOffice', port: 8787 }));
      expect(loadSettings(join(dir, 'settings.json'))).toMatchObject({ mode: 'boxOffice', port: 8787 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads kiosk, LAN and remote settings', () => {
    const pin = hashPin('1234');
    expect(parseSettings(JSON.stringify({ mode: 'kiosk', staffPinHash: pin }))).toMatchObject({ mode: 'kiosk', staffPinHash: pin });
    expect(parseSettings(JSON.stringify({ lan: { allowedHosts: ['till-1.venue.lan'] } })).lan).toEqual({ host: '0.0.0.0', allowedHosts: ['till-1.venue.lan'] });
    expect(parseSettings(JSON.stringify({ upstream: { url: 'https://tickets.example', key: 'kassa_u' } })).upstream).toEqual({ url: 'https://tickets.example', key: 'kassa_u' });
    expect(parseSettings(JSON.stringify({ remote: { url: 'http://till-1.venue.lan:8787/x', apiKey: 'kassa_k' } })).remote).toEqual({
      url: 'http://till-1.venue.lan:8787',
      apiKey: 'kassa_k',
    });
    expect(parseSettings('{}').allocation).toBe(10);
    expect(parseSettings(JSON.stringify({ allocation: 25 })).allocation).toBe(25);
  });

  it('reads a gate: it keeps no places of the hub and needs no shift unless told otherwise', () => {
    expect(parseSettings(JSON.stringify({ mode: 'gate' }))).toMatchObject({ mode: 'gate', allocation: 0, requireShift: false });
    expect(parseSettings(JSON.stringify({ mode: 'gate', allocation: 5 })).allocation).toBe(5);
    expect(() => parseSettings(JSON.stringify({ mode: 'door' }))).toThrow('settings.mode must be "boxOffice", "kiosk" or "gate"');
  });

  it.each([
    ['not json', 'not JSON'],
    ['[]', 'object'],
    ['{"mode":"cinema"}', 'settings.mode'],
    ['{"mode":"kiosk"}', 'staffPinHash'],
    ['{"port":70000}', 'settings.port'],
    ['{"remote":{"url":"ftp://x","apiKey":"k"}}', 'remote.url'],
    ['{"remote":{"url":"http://till-1:8787"}}', 'remote.apiKey'],
    ['{"lan":{"allowedHosts":[1]}}', 'allowedHosts'],
    ['{"upstream":{"url":"https://x"}}', 'upstream.key'],
    ['{"allocation":-1}', 'settings.allocation'],
    ['{"allocation":2.5}', 'settings.allocation'],
  ])('refuses %s, naming the problem', (text, problem) => {
    expect(() => parseSettings(text)).toThrow(SettingsError);
    expect(() => parseSettings(text)).toThrow(problem);
  });
});
