import { strFromU8, unzipSync } from 'fflate';
import { expect } from 'vitest';
import type { TestEngine } from './engine';

/** Reading a shift's export (GET /shifts/{id}/export): the zip's files as text, and its RFC 4180 CSV read back. */

/** every file of a zip, as UTF-8 text, by name */
export function unzipText(bytes: Uint8Array): Record<string, string> {
  return Object.fromEntries(Object.entries(unzipSync(bytes)).map(([name, data]) => [name, strFromU8(data)]));
}

/** GET /shifts/{id}/export with `key` (default: the admin key): the answer's status, headers and bytes */
export async function downloadExport(engine: TestEngine, shiftId: string, key = engine.keys.admin): Promise<{ status: number; headers: Headers; bytes: Uint8Array }> {
  const response = await fetch(`${engine.url}/api/v3/shifts/${shiftId}/export`, { headers: { 'x-svc-api-key': key } });
  return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
}

/** Reads RFC 4180 CSV (CRLF records, quoted fields) back into rows of strings. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 1;
    } else if (char === '\n' || char === '\r') throw new Error(`a bare line break outside quotes at ${i}`);
    else field += char;
  }
  if (field !== '' || row.length > 0) throw new Error('the last record does not end with CRLF');
  return rows;
}

/** A CSV file as objects keyed by its header. */
export function records(text: string): Record<string, string>[] {
  const [header = [], ...rows] = parseCsv(text);
  return rows.map((row) => {
    expect(row).toHaveLength(header.length);
    return Object.fromEntries(header.map((name, index) => [name, row[index] ?? '']));
  });
}
