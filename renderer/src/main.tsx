import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { createClient } from './api/client';
import { setClient } from './api/service';
import { loadConfig } from './api/ui-config';
import { restoreCart } from './stores/restore';
import { initSession, sessionStore } from './stores/session';
import './styles.css';

const root = createRoot(document.getElementById('root') ?? document.body);
loadConfig().then(
  (config) => {
    setClient(
      createClient({
        baseUrl: config.apiBase,
        apiKey: config.apiKey,
        language: () => sessionStore.getState().language,
        reauthenticate: async () => (await loadConfig()).apiKey,
      }),
    );
    initSession(config, new URLSearchParams(window.location.search));
    void restoreCart();
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
