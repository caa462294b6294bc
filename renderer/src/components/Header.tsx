import type { ReactNode } from 'react';
import type { Translate } from '../i18n/i18n';
import type { Language, Mode } from '../stores/session';

interface Props {
  t: Translate;
  online: boolean | null;
  /** the engine does not answer: the page waits for it and carries on where it was */
  reconnecting?: boolean;
  waiting: number | null;
  /** the upstream refuses the sync key: shown instead of Online (nothing syncs until an admin fixes it) */
  keyRejected?: boolean;
  mode: Mode;
  language: Language;
  onMode(mode: Mode): void;
  onLanguage(language: Language): void;
  /** the box office is signed in: a `Sign out` control */
  onSignOut?: () => void;
  /** more status for the bar (a printer that is down) */
  children?: ReactNode;
}

/**
 * The app bar: connectivity (and orders waiting to sync), the language, and for staff the mode. A kiosk
 * offers no way into box-office mode (cash, refunds): staff open it with ?mode=boxOffice or the desktop
 * app's staff exit. A kiosk's language is chosen with large buttons on its own screens (screens/kiosk/LanguageButtons).
 */
export function Header({ t, online, reconnecting = false, waiting, keyRejected = false, mode, language, onMode, onLanguage, onSignOut, children }: Props) {
  const status = reconnecting
    ? t('conn.reconnecting')
    : keyRejected
      ? t('conn.keyRejected')
      : online === null
        ? t('conn.checking')
        : online
          ? t('conn.online')
          : t('conn.offline');
  return (
    <header className="app-header">
      <h1 className="brand">{t('app.name')}</h1>
      <p className={`connectivity ${online === false || keyRejected ? 'is-offline' : 'is-online'}`} role="status">
        <span className="dot" aria-hidden="true" />
        <span className="state">{status}</span>
        {waiting !== null && <span className="waiting"> · {t(waiting === 1 ? 'conn.waitingOne' : 'conn.waiting', { count: waiting })}</span>}
      </p>
      {children}
      {mode === 'boxOffice' && (
        <label className="setting">
          {t('settings.mode')}
          <select value={mode} onChange={(event) => onMode(event.target.value === 'kiosk' ? 'kiosk' : 'boxOffice')}>
            <option value="boxOffice">{t('mode.boxOffice')}</option>
            <option value="kiosk">{t('mode.kiosk')}</option>
          </select>
        </label>
      )}
      {mode !== 'kiosk' && (
        <label className="setting">
          {t('settings.language')}
          <select value={language} onChange={(event) => onLanguage(event.target.value === 'de' ? 'de' : event.target.value === 'fr' ? 'fr' : 'en')}>
            <option value="en" lang="en">English</option>
            <option value="de" lang="de">Deutsch</option>
            <option value="fr" lang="fr">Français</option>
          </select>
        </label>
      )}
      {mode === 'boxOffice' && onSignOut && (
        <button type="button" className="secondary sign-out" onClick={onSignOut}>
          {t('signOut')}
        </button>
      )}
    </header>
  );
}
