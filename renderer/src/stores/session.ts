import { createStore, useStore } from 'zustand';
import { toApiError } from '../api/errors';
import { api } from '../api/service';

/**
 * Who is using the UI and how: the mode (staff or self-service), the language, the simulator's test cards, and
 * the key the page works with. The page starts with its own key (ui-config: the kiosk's, card sales only); in
 * box-office mode staff sign in with the staff PIN for the box office's key, kept in sessionStorage so that a
 * reload or a crashed renderer does not ask again. A 401 with it (lapsed after 12 h, or revoked) asks again,
 * and the sale on screen stays (every staff key's carts are the box office's).
 */
/** `gate`: the door's ticket check (`?mode=gate`, contract §15), with the page's gate key */
export type Mode = 'boxOffice' | 'kiosk' | 'gate';
export type Language = 'en' | 'de' | 'fr';

export interface SignInState {
  busy: boolean;
  /** wrong PIN, locked after too many (retryAfter seconds), the engine failed, or the session ended (401) */
  error: 'wrong' | 'locked' | 'failed' | 'ended' | null;
  retryAfter: number | null;
}
const SIGNED_OUT: SignInState = { busy: false, error: null, retryAfter: null };
const STAFF_KEY = 'kassa.staffKey';

function keepStaffKey(key: string | null): void {
  try {
    if (key === null) sessionStorage.removeItem(STAFF_KEY);
    else sessionStorage.setItem(STAFF_KEY, key);
  } catch {
    // storage disabled: a reload asks for the PIN again
  }
}
function savedStaffKey(): string | null {
  try {
    return sessionStorage.getItem(STAFF_KEY);
  } catch {
    return null;
  }
}

export interface SessionState {
  mode: Mode;
  language: Language;
  /** the language each kiosk customer starts in (the address's ?lang=, else English) */
  homeLanguage: Language;
  testTokens: readonly string[];
  /** kiosk: seconds without a touch before "still there?" */
  idleSeconds: number;
  /** the page's own key (ui-config): the kiosk's, or the gate's in gate mode */
  uiKey: string;
  /** the engine asks the box office to sign in (ui-config `staffSignIn`) */
  staffSignIn: boolean;
  /** the box office's key, once staff signed in */
  staffKey: string | null;
  signIn: SignInState;
  /** the PIN was entered: sign in, or say why not */
  pinSubmitted(pin: string): Promise<void>;
  signOutRequested(): Promise<void>;
  /** a 401 with `key`: the staff key lapsed or was revoked → sign in again (true); another key: not ours to handle (false) */
  keyRejected(key: string): boolean;
  /** ui-config gave a new page key (an engine restart) */
  uiKeyRenewed(key: string): void;
  modeChosen(mode: Mode): void;
  languageChosen(language: Language): void;
  /** a kiosk sale ended: the next customer starts in the home language */
  saleEnded(): void;
}

const saved = (key: string): string | null => {
  try {
    return localStorage.getItem(`kassa.${key}`);
  } catch {
    return null; // storage disabled: the defaults stand
  }
};
const save = (key: string, value: string) => {
  try {
    localStorage.setItem(`kassa.${key}`, value);
  } catch {
    // storage disabled: the choice lasts for this page only
  }
};

const setLang = (language: Language) => {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
};

export const sessionStore = createStore<SessionState>()((set, get) => ({
  mode: 'boxOffice',
  language: 'en',
  homeLanguage: 'en',
  testTokens: [],
  idleSeconds: 60,
  uiKey: '',
  staffSignIn: false,
  staffKey: null,
  signIn: SIGNED_OUT,
  modeChosen(mode) {
    save('mode', mode);
    // a kiosk never works with the box office's key
    if (mode === 'kiosk' && get().staffKey !== null) void get().signOutRequested();
    set({ mode });
  },
  async pinSubmitted(pin) {
    if (get().signIn.busy) return;
    set({ signIn: { ...get().signIn, busy: true } });
    try {
      const session = await api().signIn(pin);
      keepStaffKey(session.apiKey);
      api().setKey(session.apiKey);
      set({ staffKey: session.apiKey, signIn: SIGNED_OUT });
    } catch (thrown) {
      const error = toApiError(thrown);
      const retryAfter = typeof error.details.retryAfter === 'number' ? error.details.retryAfter : null;
      const reason = error.code === 'INVALID_STAFF_PIN' ? 'wrong' : error.status === 429 ? 'locked' : 'failed';
      set({ signIn: { busy: false, error: reason, retryAfter } });
    }
  },
  async signOutRequested() {
    const { staffKey, uiKey } = get();
    if (staffKey === null) return;
    keepStaffKey(null);
    set({ staffKey: null, signIn: SIGNED_OUT });
    // the staff key is revoked before the page goes on with its own
    await api().signOut().catch(() => undefined);
    api().setKey(uiKey);
  },
  keyRejected(key) {
    if (key !== get().staffKey) return false;
    keepStaffKey(null);
    set({ staffKey: null, signIn: { ...SIGNED_OUT, error: 'ended' } });
    // the page's own key for what goes on meanwhile (the header's status); the box office's calls wait for the sign-in
    api().setKey(get().uiKey);
    return true;
  },
  uiKeyRenewed(key) {
    set({ uiKey: key });
  },
  languageChosen(language) {
    // Staff (box office, gate) keep their language; a kiosk customer's choice lasts for their sale only.
    if (get().mode !== 'kiosk') save('language', language);
    setLang(language);
    set({ language });
  },
  saleEnded() {
    if (get().mode !== 'kiosk') return;
    setLang(get().homeLanguage);
    set({ language: get().homeLanguage });
  },
}));

/** Settings from the URL (?mode=kiosk&lang=de&idle=20) win over the saved ones, which win over the defaults. */
export function initSession(
  config: { apiKey: string; gateKey?: string; testTokens: readonly string[]; mode?: Mode; modeLocked?: boolean; staffSignIn?: boolean },
  search: URLSearchParams,
): void {
  const mode = config.modeLocked ? config.mode : (search.get('mode') ?? config.mode ?? saved('mode'));
  const fromUrl = search.get('lang');
  // A reloaded kiosk starts in its home language, never in the last customer's.
  const language = fromUrl ?? (mode === 'kiosk' ? null : saved('language'));
  const idle = Number(search.get('idle'));
  const isLanguage = (value: string | null): value is Language => value === 'de' || value === 'fr' || value === 'en';
  sessionStore.setState({
    testTokens: config.testTokens,
    ...(mode === 'kiosk' || mode === 'boxOffice' || mode === 'gate' ? { mode } : {}),
    ...(isLanguage(language) ? { language } : {}),
    ...(isLanguage(fromUrl) ? { homeLanguage: fromUrl } : {}),
    ...(Number.isInteger(idle) && idle > 0 ? { idleSeconds: idle } : {}),
    uiKey: pageKey(config, mode),
    staffSignIn: config.staffSignIn === true,
    staffKey: config.staffSignIn === true ? savedStaffKey() : null,
  });
  document.documentElement.lang = sessionStore.getState().language;
}

/** The page's own key for a mode: the gate's on the gate screen (the kiosk's where the engine gave none), else the kiosk's. */
export function pageKey(config: { apiKey: string; gateKey?: string }, mode: string | null | undefined): string {
  return mode === 'gate' ? (config.gateKey ?? config.apiKey) : config.apiKey;
}

export const useSession = <T>(selector: (state: SessionState) => T): T => useStore(sessionStore, selector);

/** The key the page's calls go with: the staff key in the box office once signed in, else the page's own. */
export function currentKey(state: SessionState = sessionStore.getState()): string {
  return state.mode === 'boxOffice' && state.staffKey !== null ? state.staffKey : state.uiKey;
}

/** The box office waits for a staff sign-in (the kiosk never signs in). */
export const needsSignIn = (state: SessionState): boolean => state.mode === 'boxOffice' && state.staffSignIn && state.staffKey === null;
