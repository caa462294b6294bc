/**
 * CSV as RFC 4180 writes it: fields separated by commas, records ended by CRLF (the last one too), a field in
 * double quotes when it holds a comma, a double quote, a CR or an LF, a double quote inside doubled. Text is
 * UTF-8 without a byte-order mark (the zip stores the bytes; README.txt says so).
 *
 * Nothing is rewritten to defuse spreadsheet formulas (a cell starting with `=`, `+`, `-`, `@`): these files are
 * records an auditor compares with the journal, and a negative amount must stay `-250`. README.txt warns to
 * import them as text rather than open them by double-click.
 */

export type CsvValue = string | number | null | undefined;

const NEEDS_QUOTES = /[",\r\n]/;

/** One field: empty for null/undefined, integers as written, text quoted when RFC 4180 asks for it. */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'number' ? String(value) : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A whole file: the header record, then one record per row, each row as long as the header. */
export function csvFile(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  const records = [header, ...rows].map((row, index) => {
    if (row.length !== header.length) throw new RangeError(`CSV row ${index} has ${row.length} fields, the header ${header.length}`);
    return `${row.map(csvField).join(',')}\r\n`;
  });
  return records.join('');
}
