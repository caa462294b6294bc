import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { createClient } from './api/client';
import { setClient } from './api/service';
import { ConfigRefused, keepGateKey, lanGateConfig, loadConfig, savedGateKey, type UiConfig } from './api/ui-config';
import { GateKeyEntry } from './screens/gate/GateKeyEntry';
import { restoreCart } from './stores/restore';
import { drawerStore } from './stores/drawer';
import { currentKey, initSession, pageKey, sessionStore } from './stores/session';
import './styles.css';

const root = createRoot(document.getElementById('root') ?? document.body);
const search = new URLSearchParams(window.location.search);

/** The page with its config: the engine's (`lan` false), or a LAN gate's own key (`lan` true). */
function start(config: UiConfig, lan: boolean): void {
  initSession(config, search);
  drawerStore.getState().configured(config.requireShift === true);
  setClient(
    createClient({
      baseUrl: config.apiBase,
      apiKey: currentKey(),
      language: () => sessionStore.getState().language,
      // a lapsed staff key asks staff to sign in again (no retry); the page's own key is renewed after a restart
      reauthenticate: async (rejected) => {
        const session = sessionStore.getState();
        // a stale staff key (signed out meanwhile) is not replaced either: its calls are not replayed with another key
        if (session.keyRejected(rejected) || rejected !== session.uiKey) return null;
        if (lan) {
          // a LAN gate's key was revoked: forget it and ask for another
          keepGateKey(null);
          window.location.reload();
          return null;
        }
        const renewed = pageKey(await loadConfig(), session.mode);
        sessionStore.getState().uiKeyRenewed(renewed);
        return renewed;
      },
    }),
  );
  // the gate sells nothing: no cart to restore
  if (sessionStore.getState().mode !== 'gate') void restoreCart();
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

loadConfig().then(
  (config) => start(config, false),
  (error: unknown) => {
    if (error instanceof ConfigRefused && search.get('mode') === 'gate') {
      const saved = savedGateKey();
      if (saved !== null) return start(lanGateConfig(saved), true);
      const language = search.get('lang');
      if (language === 'de' || language === 'fr' || language === 'en') sessionStore.setState({ language });
      root.render(
        <StrictMode>
          <GateKeyEntry
            apiBase={lanGateConfig('').apiBase}
            onKey={(key) => {
              keepGateKey(key);
              start(lanGateConfig(key), true);
            }}
          />
        </StrictMode>,
      );
      return;
    }
    root.render(
      <p role="alert" className="error">
        Kassa cannot reach its engine: {error instanceof Error ? error.message : String(error)}
      </p>,
    );
  },
);
