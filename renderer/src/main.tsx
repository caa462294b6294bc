import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { createClient } from './api/client';
import { setClient } from './api/service';
import { loadConfig } from './api/ui-config';
import { restoreCart } from './stores/restore';
import { drawerStore } from './stores/drawer';
import { currentKey, initSession, pageKey, sessionStore } from './stores/session';
import './styles.css';

const root = createRoot(document.getElementById('root') ?? document.body);
loadConfig().then(
  (config) => {
    initSession(config, new URLSearchParams(window.location.search));
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
  },
  (error: unknown) => {
    root.render(
      <p role="alert" className="error">
        Kassa cannot reach its engine: {error instanceof Error ? error.message : String(error)}
      </p>,
    );
  },
);
