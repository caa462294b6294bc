import { readFileSync } from 'node:fs';

/**
 * The desktop app's settings: `settings.json` in the app's user-data folder, written by venue IT.
 *
 * { "mode": "boxOffice" | "kiosk" | "gate", // kiosk: full-screen kiosk window, staff exit by PIN; gate: the door's ticket check
 *   "staffPinHash": "scrypt$…",             // from `npm run staff-pin -- 1234`; kiosk mode needs one
 *   "port": 0,                              // the local engine's port (0: a free one)
 *   "lan": { "host": "0.0.0.0", "allowedHosts": ["till-1.venue.lan"] },   // serve this engine on the LAN
 *   "remote": { "url": "http://till-1.venue.lan:8787", "apiKey": "kassa_…" }, // use another terminal's engine
 *   "upstream": { "url": "https://tickets.example", "key": "kassa_…" },   // sync this engine's sales upstream
 *   "printers": ["tcp://192.168.1.50:9100", "system:Kiosk TM-T88?paper=80"], // jobs go to the first unless a request names another
 *   "allocation": 10,                       // a hub's places of each standing area kept in hand (0–100000)
 *   "requireShift": true                    // cash only while a shift is open (--require-shift); default: on in the box office
 * }
 */
export interface Settings {
  /** gate: the door's ticket check (contract §15) with the engine's gate key; it sells nothing, so it keeps no places */
  readonly mode: 'boxOffice' | 'kiosk' | 'gate';
  readonly staffPinHash: string | undefined;
  readonly port: number;
  readonly lan: { readonly host: string; readonly allowedHosts: readonly string[] } | undefined;
  readonly remote: { readonly url: string; readonly apiKey: string } | undefined;
  readonly upstream: { readonly url: string; readonly key: string } | undefined;
  /** the engine's printers (contract §12): `tcp://HOST:PORT` (ESC/POS) or `system:NAME` (printed without a dialog) */
  readonly printers: readonly string[];
  /** places of each general item of each on-sale occurrence kept in hand from the hub (contract §10, --allocation) */
  readonly allocation: number;
  /**
   * cash sales and refunds only while a shift (the drawer) is open (contract §14, --require-shift): on by default in
   * the box office, off in the kiosk (which sells by card only)
   */
  readonly requireShift: boolean;
}

export const DEFAULT_SETTINGS: Settings = { mode: 'boxOffice', staffPinHash: undefined, port: 0, lan: undefined, remote: undefined, upstream: undefined, printers: [], allocation: 10, requireShift: true };

export class SettingsError extends Error {}

/** Reads settings; a missing file means the defaults, a broken one is an error naming the field. */
export function loadSettings(path: string): Settings {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return DEFAULT_SETTINGS; // no settings file yet: a box-office terminal with its own engine
  }
  return parseSettings(text);
}

export function parseSettings(text: string): Settings {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new SettingsError(`settings.json is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new SettingsError('settings.json must hold an object');
  const value = raw as Record<string, unknown>;
  const mode = value.mode ?? 'boxOffice';
  if (mode !== 'boxOffice' && mode !== 'kiosk' && mode !== 'gate') throw new SettingsError('settings.mode must be "boxOffice", "kiosk" or "gate"');
  const staffPinHash = optionalString(value.staffPinHash, 'staffPinHash');
  if (mode === 'kiosk' && !staffPinHash) throw new SettingsError('kiosk mode needs settings.staffPinHash (npm run staff-pin -- PIN)');
  const port = value.port ?? 0;
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65535) throw new SettingsError('settings.port must be 0–65535');
  // a gate sells nothing: it keeps no places of the hub in hand unless told to
  const allocation = value.allocation ?? (mode === 'gate' ? 0 : 10);
  if (typeof allocation !== 'number' || !Number.isInteger(allocation) || allocation < 0 || allocation > 100_000) {
    throw new SettingsError('settings.allocation must be a whole number from 0 to 100000');
  }
  const requireShift = value.requireShift ?? mode === 'boxOffice';
  if (typeof requireShift !== 'boolean') throw new SettingsError('settings.requireShift must be true or false');
  return {
    mode,
    staffPinHash,
    port,
    lan: parseLan(value.lan),
    remote: parseRemote(value.remote),
    upstream: parseUpstream(value.upstream),
    printers: parsePrinters(value.printers),
    allocation,
    requireShift,
  };
}

function parseLan(value: unknown): Settings['lan'] {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null) throw new SettingsError('settings.lan must be an object');
  const lan = value as Record<string, unknown>;
  const host = optionalString(lan.host, 'lan.host') ?? '0.0.0.0';
  const allowedHosts = lan.allowedHosts ?? [];
  if (!Array.isArray(allowedHosts) || !allowedHosts.every((name) => typeof name === 'string')) throw new SettingsError('settings.lan.allowedHosts must list host names');
  return { host, allowedHosts };
}

/** The engine checks each printer fully when it starts; here only the shape, so a typo names the setting. */
function parsePrinters(value: unknown): Settings['printers'] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((entry) => typeof entry === 'string' && /^(tcp:\/\/.+|system:.+)$/.test(entry))) {
    throw new SettingsError('settings.printers must list printers as "tcp://HOST:PORT" or "system:NAME"');
  }
  return value;
}

function parseRemote(value: unknown): Settings['remote'] {
  const remote = parseEndpoint(value, 'remote', 'apiKey', 'a remote engine needs a key');
  return remote && { url: new URL(remote.url).origin, apiKey: remote.secret };
}

function parseUpstream(value: unknown): Settings['upstream'] {
  const upstream = parseEndpoint(value, 'upstream', 'key', 'a key of the upstream with orders:import');
  return upstream && { url: upstream.url, key: upstream.secret };
}

/** `{ url, <keyField> }`: an http(s) URL and the API key to use there. */
function parseEndpoint(value: unknown, name: string, keyField: string, why: string): { url: string; secret: string } | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null) throw new SettingsError(`settings.${name} must be an object`);
  const endpoint = value as Record<string, unknown>;
  const url = optionalString(endpoint.url, `${name}.url`);
  const secret = optionalString(endpoint[keyField], `${name}.${keyField}`);
  if (!url || !URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) throw new SettingsError(`settings.${name}.url must be an http(s) URL`);
  if (!secret) throw new SettingsError(`settings.${name}.${keyField} is required (${why})`);
  return { url, secret };
}

function optionalString(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length === 0) throw new SettingsError(`settings.${name} must be a non-empty string`);
  return value;
}
