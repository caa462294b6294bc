import type { BrowserWindowConstructorOptions } from 'electron';

/**
 * The one window the app opens, locked down per Electron's security checklist: context isolation, the
 * sandbox, no Node integration, web security on, no remote module, no webview, no insecure content.
 */
export function mainWindowOptions(options: { kiosk: boolean; preload: string }): BrowserWindowConstructorOptions {
  return {
    width: 1366,
    height: 768,
    minWidth: 1024,
    minHeight: 700,
    show: false,
    backgroundColor: '#f2f4f7',
    title: 'Kassa',
    autoHideMenuBar: true,
    kiosk: options.kiosk,
    fullscreen: options.kiosk,
    webPreferences: {
      preload: options.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      devTools: !options.kiosk,
    },
  };
}
