import { BrowserWindow, type Event, type Input } from 'electron';
import type { Logger } from 'pino';
import { mainWindowOptions } from './window-options';

/**
 * The main window. In kiosk mode it is full-screen with no menu and cannot be closed but through the staff
 * exit (Ctrl+Shift+Q asks the page for the PIN). A crashed renderer is reloaded: the page restores its held
 * cart from session storage, so the hold is not lost.
 */
export function createMainWindow(options: { url: string; kiosk: boolean; preload: string; logger: Logger; mayClose: () => boolean }): BrowserWindow {
  const window = new BrowserWindow(mainWindowOptions({ kiosk: options.kiosk, preload: options.preload }));
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
