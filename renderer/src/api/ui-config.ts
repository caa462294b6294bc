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

export async function loadConfig(): Promise<UiConfig> {
  if (window.kassa) return window.kassa.config();
  const response = await fetch('./ui-config.json', { cache: 'no-store' });
  if (!response.ok) throw new Error(`ui-config.json answered ${response.status}`);
  return (await response.json()) as UiConfig;
}
