import { useEffect, useRef } from 'react';
import { Header } from './components/Header';
import { useT } from './i18n/i18n';
import { BoxOffice } from './screens/boxoffice/BoxOffice';
import { Kiosk } from './screens/kiosk/Kiosk';
import { Gate } from './screens/gate/Gate';
import { cartStore } from './stores/cart';
import { catalogStore } from './stores/catalog';
import { PrinterAlert } from './screens/shared/PrinterAlert';
import { SyncBacklog } from './screens/shared/SyncBacklog';
import { useConnectivity, watchConnectivity } from './stores/connectivity';
import { needsSignIn, sessionStore, useSession } from './stores/session';
import { StaffSignIn } from './screens/boxoffice/StaffSignIn';
import { DrawerIndicator } from './screens/boxoffice/DrawerIndicator';

export function App() {
  const t = useT();
  const mode = useSession((state) => state.mode);
  const language = useSession((state) => state.language);
  const online = useConnectivity((state) => state.online);
  const reconnecting = useConnectivity((state) => state.reconnecting);
  const waiting = useConnectivity((state) => state.waiting);
  const keyRejected = useConnectivity((state) => state.keyRejected);
  const signingIn = useSession(needsSignIn);
  const signedIn = useSession((state) => state.staffKey !== null);
  useEffect(() => watchConnectivity(), []);
  // The engine answers catalog names in the chosen language (Accept-Language): read them again on a switch.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    void catalogStore.getState().eventsRequested();
    void catalogStore.getState().inventoryRefreshed(cartStore.getState().cart?.currency);
    void cartStore.getState().refreshed();
  }, [language]);
  return (
    <div className={`app mode-${mode}`}>
      <Header
        t={t}
        online={online}
        reconnecting={reconnecting}
        waiting={waiting}
        keyRejected={keyRejected}
        mode={mode}
        language={language}
        onMode={sessionStore.getState().modeChosen}
        onLanguage={sessionStore.getState().languageChosen}
        {...(signedIn && { onSignOut: () => void sessionStore.getState().signOutRequested() })}
      >
        {mode === 'boxOffice' && !signingIn && <SyncBacklog t={t} />}
        {mode === 'boxOffice' && !signingIn && <DrawerIndicator />}
        {mode !== 'gate' && <PrinterAlert />}
      </Header>
      {mode === 'kiosk' ? <Kiosk /> : mode === 'gate' ? <Gate /> : <main className="main">{signingIn ? <StaffSignIn /> : <BoxOffice />}</main>}
    </div>
  );
}
