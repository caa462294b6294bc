/**
 * Printers as configured (contract §12): `tcp://HOST:PORT` an ESC/POS network printer (port 9100 when none
 * is given), `system:NAME` a printer of the operating system (the desktop app only). A query sets the paper:
 * `?paper=58` for a 58 mm roll (32 columns; default 80 mm, 48 columns); a system printer also takes
 * `?paper=a4`. The URL as given is the printer's id in the API.
 */

export type Paper = '58mm' | '80mm' | 'a4';

export type PrinterSpec =
  | { readonly id: string; readonly kind: 'escpos'; readonly host: string; readonly port: number; readonly paper: '58mm' | '80mm' }
  | { readonly id: string; readonly kind: 'system'; readonly name: string; readonly paper: Paper };

export class PrinterUrlError extends Error {}

export const DEFAULT_ESCPOS_PORT = 9100;

export function parsePrinter(text: string): PrinterSpec {
  const [base = '', query = ''] = text.split('?', 2);
  const params = new URLSearchParams(query);
  const paperParam = params.get('paper');
  for (const key of params.keys()) if (key !== 'paper') throw new PrinterUrlError(`printer "${text}": unknown option "${key}" (only "paper")`);
  if (base.startsWith('tcp://')) {
    if (!URL.canParse(base)) throw new PrinterUrlError(`printer "${text}" is not tcp://HOST:PORT`);
    const url = new URL(base);
    if (!url.hostname || url.pathname.replace(/\/$/, '') !== '' || url.username || url.password) throw new PrinterUrlError(`printer "${text}" is not tcp://HOST:PORT`);
    const port = url.port === '' ? DEFAULT_ESCPOS_PORT : Number(url.port);
    const paper = paperOf(text, paperParam, ['58mm', '80mm']);
    return { id: text, kind: 'escpos', host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port, paper: paper === '58mm' ? '58mm' : '80mm' };
  }
  if (base.startsWith('system:')) {
    const name = decodeURIComponent(base.slice('system:'.length));
    if (name.trim() === '') throw new PrinterUrlError(`printer "${text}" names no system printer (system:NAME)`);
    return { id: text, kind: 'system', name, paper: paperOf(text, paperParam, ['58mm', '80mm', 'a4']) };
  }
  throw new PrinterUrlError(`printer "${text}" must be tcp://HOST:PORT or system:NAME`);
}

function paperOf(text: string, value: string | null, allowed: readonly Paper[]): Paper {
  if (value === null) return '80mm';
  const paper = /^\d+$/.test(value) ? `${value}mm` : value.toLowerCase();
  const found = allowed.find((candidate) => candidate === paper);
  if (!found) throw new PrinterUrlError(`printer "${text}": paper must be one of ${allowed.join(', ')}`);
  return found;
}
