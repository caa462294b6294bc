/**
 * Start-up: the engine that serves this page tells it its API key and the test cards of its simulated
 * provider (GET /ui-config.json, same origin only). Electron's preload bridge provides the same.
 */
export interface UiConfig {
  /** the kiosk's key (card sales only); the box office signs in for its own when `staffSignIn` */
  apiKey: string;
  /** the gate screen's key (`?mode=gate`: the catalog, check-ins, the sync status); absent from a remote engine's settings */
  gateKey?: string;
  /** the engine offers the staff sign-in (POST /staff-sessions): the box office asks for the staff PIN */
  staffSignIn?: boolean;
  apiBase: string;
  /** the engine refuses cash with no open shift (`serve --require-shift`, the desktop box office's default): the box office asks to open the drawer first */
  requireShift?: boolean;
  testTokens: string[];
  /** the desktop app's setting; a kiosk's mode cannot be changed from the page */
  mode?: 'boxOffice' | 'kiosk' | 'gate';
  modeLocked?: boolean;
}

declare global {
  interface Window {
    /** the desktop app's preload bridge (absent in a browser) */
    kassa?: {
      config(): Promise<UiConfig>;
      staffExit?(pin: string): Promise<boolean>;
      onStaffExitRequested?(listener: () => void): () => void;
    };
  }
}

/** The engine hands its page's keys to this machine only (engine/http/routes/ui.ts): another device on the LAN brings its own. */
export class ConfigRefused extends Error {}

export async function loadConfig(): Promise<UiConfig> {
  if (window.kassa) return window.kassa.config();
  const response = await fetch('./ui-config.json', { cache: 'no-store' });
  if (response.status === 403) throw new ConfigRefused('ui-config.json answered 403: this engine gives its keys to its own machine only');
  if (!response.ok) throw new Error(`ui-config.json answered ${response.status}`);
  return (await response.json()) as UiConfig;
}

const GATE_KEY = 'kassa.gateKey';

/**
 * A gate on another device of the venue's LAN (a phone, a tablet): the engine gives it no key, so staff enter a
 * key with the gate's scopes once (`npm run keys -- create --scopes catalog:read,checkin,sync:status`), kept on
 * the device. The config is then the page's own, with that key.
 */
export function lanGateConfig(key: string): UiConfig {
  return { apiKey: key, gateKey: key, apiBase: './api/v3', testTokens: [], mode: 'gate' };
}

/** The gate key kept on this device (null: none). */
export function savedGateKey(): string | null {
  try {
    return localStorage.getItem(GATE_KEY);
  } catch {
    return null;
  }
}

/** Keeps (or, with null, forgets) this device's gate key. */
export function keepGateKey(key: string | null): void {
  try {
    if (key === null) localStorage.removeItem(GATE_KEY);
    else localStorage.setItem(GATE_KEY, key);
  } catch {
    // storage disabled: the key lasts for this page only
  }
}
