import { useEffect } from 'react';
import { Header } from './components/Header';
import { useT } from './i18n/i18n';
import { BoxOffice } from './screens/boxoffice/BoxOffice';
import { Kiosk } from './screens/kiosk/Kiosk';
import { PrinterAlert } from './screens/shared/PrinterAlert';
import { useConnectivity, watchConnectivity } from './stores/connectivity';
import { sessionStore, useSession } from './stores/session';

export function App() {
  const t = useT();
  const mode = useSession((state) => state.mode);
  const language = useSession((state) => state.language);
  const online = useConnectivity((state) => state.online);
  const waiting = useConnectivity((state) => state.waiting);
  useEffect(() => watchConnectivity(), []);
  return (
    <div className={`app mode-${mode}`}>
      <Header
        t={t}
        online={online}
        waiting={waiting}
        mode={mode}
        language={language}
        onMode={sessionStore.getState().modeChosen}
        onLanguage={sessionStore.getState().languageChosen}
      >
        <PrinterAlert />
      </Header>
      {mode === 'kiosk' ? <Kiosk /> : <main className="main"><BoxOffice /></main>}
    </div>
  );
}
