import { sessionStore, useSession, type Language } from '../../stores/session';

const LANGUAGES: readonly { code: Language; name: string }[] = [
  { code: 'en', name: 'English' },
  { code: 'de', name: 'Deutsch' },
  { code: 'fr', name: 'Français' },
];

/** The kiosk's language choice: one large button per language, named in that language. */
export function LanguageButtons({ label }: { label: string }) {
  const language = useSession((state) => state.language);
  return (
    <div className="languages" role="group" aria-label={label}>
      {LANGUAGES.map(({ code, name }) => (
        <button key={code} type="button" lang={code} className="language" aria-pressed={language === code} onClick={() => sessionStore.getState().languageChosen(code)}>
          <span className="lang-code" aria-hidden="true">
            {code.toUpperCase()}
          </span>{' '}
          {name}
        </button>
      ))}
    </div>
  );
}
