import { BrowserWindow, type Event, type Input } from 'electron';
import type { Logger } from 'pino';

/**
 * The main window. In kiosk mode it is full-screen with no menu and cannot be closed but through the staff
 * exit (Ctrl+Shift+Q asks the page for the PIN). A crashed renderer is reloaded: the page restores its held
 * cart from session storage, so the hold is not lost.
 */
export function createMainWindow(options: { url: string; kiosk: boolean; preload: string; logger: Logger; mayClose: () => boolean }): BrowserWindow {
  // Locked down per Electron's security checklist; written as a literal so static scanners see it too.
  const window = new BrowserWindow({
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
      disableBlinkFeatures: 'Auxclick',
      navigateOnDragDrop: false,
      spellcheck: false,
      devTools: !options.kiosk,
    },
  });
  if (options.kiosk) window.setMenu(null);
  window.once('ready-to-show', () => window.show());
  window.on('close', (event) => {
    if (options.kiosk && !options.mayClose()) event.preventDefault();
  });
  window.webContents.on('render-process-gone', (_event, details) => {
    options.logger.error({ reason: details.reason, exitCode: details.exitCode }, 'renderer gone; reloading');
    if (details.reason !== 'clean-exit') window.reload();
  });
  window.webContents.on('before-input-event', (event: Event, input: Input) => {
    if (!options.kiosk || input.type !== 'keyDown') return;
    if (input.control && input.shift && input.key.toLowerCase() === 'q') {
      event.preventDefault();
      window.webContents.send('kassa:staff-exit-requested');
    } else if ((input.alt && input.key === 'F4') || (input.control && ['w', 'r'].includes(input.key.toLowerCase())) || input.key === 'F11') {
      event.preventDefault(); // no way out of (or around) the kiosk but the staff exit
    }
  });
  void window.loadURL(options.url);
  return window;
}
