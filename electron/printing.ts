import { BrowserWindow, type WebContentsPrintOptions } from 'electron';
import type { EngineOptions } from '../engine/start';

/**
 * Silent printing on the operating system's printers (`system:NAME`, contract §12), around Electron's known
 * traps: a `deviceName` that matches no printer is silently ignored (electron#30340), so the name is checked
 * first; the page size defaults to A4 (electron#39670), so it is always given; and a roll cut to a slice
 * (electron#12549) is avoided by sizing each page to the tallest slip on it. One job at a time.
 */
type SystemPrint = NonNullable<EngineOptions['systemPrint']>;
type Request = Parameters<SystemPrint>[0];

const MICRONS_PER_MM = 1000;
const ROLL_WIDTH_MM = { '58mm': 58, '80mm': 80 } as const;

export function createSystemPrint(): SystemPrint {
  let previous: Promise<unknown> = Promise.resolve();
  return (request) => {
    const run = previous.then(() => printOnce(request));
    previous = run.catch(() => undefined);
    return run;
  };
}

/** The printers of this computer, for the settings (name as `system:NAME` takes it). */
export async function listSystemPrinters(): Promise<{ name: string; displayName: string; description: string }[]> {
  const window = hiddenWindow();
  try {
    const printers = await window.webContents.getPrintersAsync();
    return printers.map((printer) => ({ name: printer.name, displayName: printer.displayName, description: printer.description }));
  } finally {
    window.destroy();
  }
}

async function printOnce(request: Request): Promise<void> {
  const window = hiddenWindow();
  try {
    const printers = await window.webContents.getPrintersAsync();
    if (!printers.some((printer) => printer.name === request.printer)) throw new Error(`no printer named "${request.printer}" on this computer`);
    await window.loadURL(`data:text/html;charset=utf-8,${encodeURIComponent(request.html)}`);
    const options: WebContentsPrintOptions = {
      silent: true,
      deviceName: request.printer,
      printBackground: true,
      margins: { marginType: 'none' },
      pageSize: request.paper === 'a4' ? 'A4' : await rollPage(window, ROLL_WIDTH_MM[request.paper]),
    };
    await new Promise<void>((resolve, reject) => {
      window.webContents.print(options, (success, failureReason) => {
        if (success) resolve();
        else reject(new Error(`the system printer did not take the job: ${failureReason || 'no reason given'}`));
      });
    });
  } finally {
    window.destroy();
  }
}

/** A page as wide as the roll and as tall as the tallest slip (CSS px at 96 per inch), in microns. */
async function rollPage(window: BrowserWindow, widthMm: number): Promise<{ width: number; height: number }> {
  const heightPx: unknown = await window.webContents.executeJavaScript(
    "Math.max(...Array.from(document.querySelectorAll('section'), (s) => s.getBoundingClientRect().height), 100)",
  );
  const heightMm = (typeof heightPx === 'number' ? heightPx : 400) * (25.4 / 96) + 10;
  return { width: widthMm * MICRONS_PER_MM, height: Math.ceil(heightMm) * MICRONS_PER_MM };
}

function hiddenWindow(): BrowserWindow {
  return new BrowserWindow({
    show: false,
    width: 800,
    height: 1200,
    webPreferences: { sandbox: true, contextIsolation: true, nodeIntegration: false },
  });
}
