import { app, ipcMain, type BrowserWindow } from 'electron';
import { join } from 'node:path';
import pino from 'pino';
import { ENGINE_V8_FLAGS } from '../engine/cli/v8-flags';
import { startEngine, type RunningEngine } from '../engine/start';
import { createSystemPrint, listSystemPrinters } from './printing';
import { installSecurity } from './security';
import { loadSettings, type Settings } from './settings';
import { createPinGuard, verifyPin } from '../engine/staff/pin';
import { createMainWindow } from './window';

/**
 * The desktop app's main process: lifecycle only. It starts the same engine `npm run serve` starts (on
 * 127.0.0.1, or the LAN host of the settings), with its database in the user-data folder and its logs in a
 * file there, or uses another terminal's engine; then opens the UI in one locked-down window.
 */

// The engine runs in this process: its V8 heap settings (engine/cli/v8-flags.ts), before the app is ready.
app.commandLine.appendSwitch('js-flags', ENGINE_V8_FLAGS.join(' '));

// Tests and portable installs may point the app at another user-data folder.
if (process.env.KASSA_USER_DATA) app.setPath('userData', process.env.KASSA_USER_DATA);
const userData = app.getPath('userData');
const logger = pino(
  { redact: ['req.headers["x-svc-api-key"]', 'req.headers.authorization'] },
  pino.destination({ dest: join(userData, 'logs', 'kassa.log'), mkdir: true, sync: false }),
);

let engine: RunningEngine | undefined;
const pinGuard = createPinGuard();
let window: BrowserWindow | undefined;
let quitting = false;

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (window?.isMinimized()) window.restore();
    window?.focus();
  });
  app.whenReady().then(start).catch(fail);
}

async function start(): Promise<void> {
  const settings = loadSettings(join(userData, 'settings.json'));
  const target = settings.remote ? remoteTarget(settings) : await localTarget(settings);
  installSecurity([new URL(target.url).origin]);

  ipcMain.handle('kassa:config', (event) => {
    if (new URL(event.senderFrame?.url ?? 'about:blank').origin !== new URL(target.url).origin) return undefined;
    return { ...target.config, mode: settings.mode, modeLocked: settings.mode === 'kiosk' };
  });
  // The printers of this computer, for whoever sets up `printers` (system:NAME); names only, nothing to print with.
  ipcMain.handle('kassa:system-printers', (event) => {
    if (new URL(event.senderFrame?.url ?? 'about:blank').origin !== new URL(target.url).origin) return [];
    return listSystemPrinters();
  });
  ipcMain.handle('kassa:staff-exit', (_event, pin: unknown) => {
    if (pinGuard.locked(Date.now())) {
      logger.warn('staff exit refused: locked after repeated wrong PINs');
      return false;
    }
    if (typeof pin !== 'string' || !verifyPin(pin, settings.staffPinHash)) {
      pinGuard.failed(Date.now());
      logger.warn('staff exit refused: wrong PIN');
      return false;
    }
    pinGuard.succeeded();
    logger.info('staff exit');
    quitting = true;
    app.quit();
    return true;
  });

  window = createMainWindow({
    url: target.url,
    kiosk: settings.mode === 'kiosk',
    preload: join(import.meta.dirname, 'preload.cjs'),
    logger,
    mayClose: () => quitting,
  });
  logger.info({ url: target.url, mode: settings.mode, remote: Boolean(settings.remote) }, 'window opened');
}

async function localTarget(settings: Settings) {
  const appRoot = app.getAppPath();
  engine = await startEngine({
    dataDir: join(userData, 'data'),
    port: settings.port,
    host: settings.lan?.host ?? '127.0.0.1',
    allowedHosts: settings.lan?.allowedHosts ?? [],
    uiDir: join(appRoot, 'dist', 'renderer'),
    migrationsDir: join(appRoot, 'engine', 'store', 'migrations'),
    ...(settings.upstream && { upstream: settings.upstream }),
    printers: settings.printers,
    systemPrint: createSystemPrint(),
    allocation: settings.allocation,
    requireShift: settings.requireShift,
    // the box office's staff sign-in takes the same PIN as the kiosk's staff exit
    ...(settings.staffPinHash !== undefined && { staffPinHash: settings.staffPinHash }),
    logger,
  });
  // the path only, never the PIN
  if (engine.staffPinFile !== undefined) logger.info(`staff PIN: see ${engine.staffPinFile}`);
  if (!engine.ui) throw new Error('the UI is missing from this build (dist/renderer)');
  // The window always talks to its own engine over loopback, also when the engine serves the LAN.
  const url = engine.ui.url.replace(/^http:\/\/(0\.0\.0\.0|\[::\])/, 'http://127.0.0.1');
  return { url, config: engine.ui.config };
}

function remoteTarget(settings: Settings) {
  const remote = settings.remote;
  if (!remote) throw new Error('no remote engine configured');
  return { url: `${remote.url}/`, config: { apiKey: remote.apiKey, apiBase: `${remote.url}/api/v3`, testTokens: [] } };
}

app.on('window-all-closed', () => app.quit());

// The engine and its database close before the process ends.
app.on('will-quit', (event) => {
  const running = engine;
  if (!running) return;
  engine = undefined;
  event.preventDefault();
  running.close().then(
    () => app.quit(),
    (error: unknown) => {
      logger.error({ err: error }, 'engine did not close cleanly');
      app.exit(1);
    },
  );
});

function fail(error: unknown): void {
  logger.fatal({ err: error }, 'could not start');
  console.error(`Kassa could not start: ${error instanceof Error ? error.message : String(error)}`);
  app.exit(1);
}
