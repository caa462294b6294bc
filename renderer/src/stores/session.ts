import { createStore, useStore } from 'zustand';

/** Who is using the UI and how: the mode (staff or self-service), the language, the simulator's test cards. */
export type Mode = 'boxOffice' | 'kiosk';
export type Language = 'en' | 'de' | 'fr';

export interface SessionState {
  mode: Mode;
  language: Language;
  /** the language each kiosk customer starts in (the address's ?lang=, else English) */
  homeLanguage: Language;
  testTokens: readonly string[];
  /** kiosk: seconds without a touch before "still there?" */
  idleSeconds: number;
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
  modeChosen(mode) {
    save('mode', mode);
    set({ mode });
  },
  languageChosen(language) {
    // Staff keep their language; a kiosk customer's choice lasts for their sale only.
    if (get().mode === 'boxOffice') save('language', language);
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
export function initSession(config: { testTokens: readonly string[]; mode?: Mode; modeLocked?: boolean }, search: URLSearchParams): void {
  const mode = config.modeLocked ? config.mode : (search.get('mode') ?? config.mode ?? saved('mode'));
  const fromUrl = search.get('lang');
  // A reloaded kiosk starts in its home language, never in the last customer's.
  const language = fromUrl ?? (mode === 'kiosk' ? null : saved('language'));
  const idle = Number(search.get('idle'));
  const isLanguage = (value: string | null): value is Language => value === 'de' || value === 'fr' || value === 'en';
  sessionStore.setState({
    testTokens: config.testTokens,
    ...(mode === 'kiosk' || mode === 'boxOffice' ? { mode } : {}),
    ...(isLanguage(language) ? { language } : {}),
    ...(isLanguage(fromUrl) ? { homeLanguage: fromUrl } : {}),
    ...(Number.isInteger(idle) && idle > 0 ? { idleSeconds: idle } : {}),
  });
  document.documentElement.lang = sessionStore.getState().language;
}

export const useSession = <T>(selector: (state: SessionState) => T): T => useStore(sessionStore, selector);
