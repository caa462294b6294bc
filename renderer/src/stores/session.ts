import { createStore, useStore } from 'zustand';

/** Who is using the UI and how: the mode (staff or self-service), the language, the simulator's test cards. */
export type Mode = 'boxOffice' | 'kiosk';
export type Language = 'en' | 'de' | 'fr';

export interface SessionState {
  mode: Mode;
  language: Language;
  testTokens: readonly string[];
  /** kiosk: seconds without a touch before "still there?" */
  idleSeconds: number;
  modeChosen(mode: Mode): void;
  languageChosen(language: Language): void;
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

export const sessionStore = createStore<SessionState>()((set) => ({
  mode: 'boxOffice',
  language: 'en',
  testTokens: [],
  idleSeconds: 60,
  modeChosen(mode) {
    save('mode', mode);
    set({ mode });
  },
  languageChosen(language) {
    save('language', language);
    document.documentElement.lang = language;
    set({ language });
  },
}));

/** Settings from the URL (?mode=kiosk&lang=de&idle=20) win over the saved ones, which win over the defaults. */
export function initSession(config: { testTokens: readonly string[]; mode?: Mode; modeLocked?: boolean }, search: URLSearchParams): void {
  const mode = config.modeLocked ? config.mode : (search.get('mode') ?? config.mode ?? saved('mode'));
  const language = search.get('lang') ?? saved('language');
  const idle = Number(search.get('idle'));
  sessionStore.setState({
    testTokens: config.testTokens,
    ...(mode === 'kiosk' || mode === 'boxOffice' ? { mode } : {}),
    ...(language === 'de' || language === 'fr' || language === 'en' ? { language } : {}),
    ...(Number.isInteger(idle) && idle > 0 ? { idleSeconds: idle } : {}),
  });
  document.documentElement.lang = sessionStore.getState().language;
}

export const useSession = <T>(selector: (state: SessionState) => T): T => useStore(sessionStore, selector);
