import CodepageEncoder, { type Codepage } from '@point-of-sale/codepage-encoder';

/**
 * Reads ESC/POS bytes back into what a printer would do: text (in the code page ESC t selected), QR codes
 * (the payload of GS ( k cn=49 fn=80, printed by fn=81), cuts (GS V), drawer kicks (ESC p). Any command it
 * does not know fails the test, so an encoder change cannot slip past unread.
 */

export type EscPosEvent =
  | { kind: 'text'; text: string }
  | { kind: 'qr'; data: string }
  | { kind: 'cut'; mode: number }
  | { kind: 'pulse'; pin: number; onMs: number; offMs: number };

/** Epson's ESC t table, the encoder's default mapping (only the pages text can land in here). */
const EPSON_PAGES: Record<number, Codepage> = { 0: 'cp437', 2: 'cp850', 13: 'cp857', 16: 'windows1252', 17: 'cp866', 18: 'cp852', 19: 'cp858', 40: 'iso8859-15' };

/** fixed-length commands: prefix byte pair → number of argument bytes */
const ESC_ARGS: Record<number, number> = { 0x21: 1, 0x2d: 1, 0x32: 0, 0x33: 1, 0x40: 0, 0x45: 1, 0x47: 1, 0x4a: 1, 0x4d: 1, 0x52: 1, 0x56: 1, 0x61: 1, 0x64: 1, 0x74: 1, 0x7b: 1, 0x34: 1 };
const GS_ARGS: Record<number, number> = { 0x21: 1, 0x42: 1, 0x48: 1, 0x66: 1, 0x68: 1, 0x77: 1, 0x4c: 2, 0x57: 2 };

export function decodeEscPos(bytes: Uint8Array): EscPosEvent[] {
  const events: EscPosEvent[] = [];
  let page: Codepage = 'cp437';
  let text: number[] = [];
  let pendingQr = '';
  const flush = () => {
    if (text.length > 0) events.push({ kind: 'text', text: decodeText(text, page) });
    text = [];
  };
  let i = 0;
  const at = (offset: number) => {
    const value = bytes[i + offset];
    if (value === undefined) throw new Error(`ESC/POS stream ends inside a command at ${i}`);
    return value;
  };
  while (i < bytes.length) {
    const byte = at(0);
    if (byte === 0x1b) {
      const command = at(1);
      if (command === 0x70) {
        flush();
        events.push({ kind: 'pulse', pin: at(2), onMs: at(3) * 2, offMs: at(4) * 2 });
        i += 5;
        continue;
      }
      const args = ESC_ARGS[command];
      if (args === undefined) throw new Error(`unknown ESC 0x${command.toString(16)} at ${i}`);
      if (command === 0x74) {
        flush();
        const selected = EPSON_PAGES[at(2)];
        if (!selected) throw new Error(`code page ${at(2)} not in the decoder's table`);
        page = selected;
      }
      i += 2 + args;
      continue;
    }
    if (byte === 0x1c) {
      const command = at(1);
      if (command !== 0x2e && command !== 0x26) throw new Error(`unknown FS 0x${command.toString(16)} at ${i}`);
      i += 2;
      continue;
    }
    if (byte === 0x1d) {
      const command = at(1);
      if (command === 0x28 && at(2) === 0x6b) {
        const length = at(3) + at(4) * 256;
        const cn = at(5);
        const fn = at(6);
        const payload = bytes.subarray(i + 7, i + 5 + length);
        if (cn === 49 && fn === 80) pendingQr = Buffer.from(payload.subarray(1)).toString('latin1'); // m = 48, then the data
        if (cn === 49 && fn === 81) {
          flush();
          events.push({ kind: 'qr', data: pendingQr });
        }
        i += 5 + length;
        continue;
      }
      if (command === 0x56) {
        flush();
        const mode = at(2);
        events.push({ kind: 'cut', mode });
        i += mode >= 65 ? 4 : 3;
        continue;
      }
      const args = GS_ARGS[command];
      if (args === undefined) throw new Error(`unknown GS 0x${command.toString(16)} at ${i}`);
      i += 2 + args;
      continue;
    }
    if (byte === 0x0a) {
      text.push(0x0a);
      i += 1;
      continue;
    }
    if (byte === 0x0d || byte === 0x09) {
      i += 1;
      continue;
    }
    if (byte < 0x20) throw new Error(`unknown control byte 0x${byte.toString(16)} at ${i}`);
    text.push(byte);
    i += 1;
  }
  flush();
  return events;
}

function decodeText(bytes: readonly number[], page: Codepage): string {
  const points = CodepageEncoder.getCodepoints(page, true);
  return bytes
    .map((byte) => {
      if (byte < 0x80) return String.fromCharCode(byte);
      const point = points.length === 128 ? points[byte - 0x80] : points[byte];
      return point === undefined ? '\ufffd' : String.fromCodePoint(point);
    })
    .join('');
}

/** All text of the stream, lines joined with newlines. */
export function textOf(events: readonly EscPosEvent[]): string {
  return events.flatMap((event) => (event.kind === 'text' ? [event.text] : [])).join('');
}

/** The stream cut into slips: the events up to and including each cut. */
export function slipsOf(events: readonly EscPosEvent[]): EscPosEvent[][] {
  const slips: EscPosEvent[][] = [[]];
  for (const event of events) {
    slips.at(-1)?.push(event);
    if (event.kind === 'cut') slips.push([]);
  }
  return slips.filter((slip) => slip.length > 0);
}
