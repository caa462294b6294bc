import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { createClient } from './api/client';
import { setClient } from './api/service';
import { createPrintingClient, setPrintingClient } from './api/printing';
import { restoreCart } from './stores/restore';
import { initSession, sessionStore } from './stores/session';
import './styles.css';

/**
 * Start-up: the engine that serves this page tells it its API key and the test cards of its simulated
 * provider (GET /ui-config.json, same origin only). Electron's preload bridge provides the same.
 */
interface UiConfig {
  apiKey: string;
  apiBase: string;
  testTokens: string[];
  /** the desktop app's setting; a kiosk's mode cannot be changed from the page */
  mode?: 'boxOffice' | 'kiosk';
  modeLocked?: boolean;
}

declare global {
  interface Window {
    /** the desktop app's preload bridge (absent in a browser) */
    kassa?: {
      config(): Promise<UiConfig>;
      staffExit?(pin: string): Promise<boolean>;
      onStaffExitRequested?(listener: () => void): () => void;
    };
  }
}

async function loadConfig(): Promise<UiConfig> {
  if (window.kassa) return window.kassa.config();
  const response = await fetch('./ui-config.json', { cache: 'no-store' });
  if (!response.ok) throw new Error(`ui-config.json answered ${response.status}`);
  return (await response.json()) as UiConfig;
}

const root = createRoot(document.getElementById('root') ?? document.body);
loadConfig().then(
  (config) => {
    setClient(createClient({ baseUrl: config.apiBase, apiKey: config.apiKey, language: () => sessionStore.getState().language }));
    setPrintingClient(createPrintingClient({ baseUrl: config.apiBase, apiKey: config.apiKey, language: () => sessionStore.getState().language }));
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
