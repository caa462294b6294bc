import type { CANCELLATION_COLUMNS, CASH_MOVEMENT_COLUMNS, EVENT_COLUMNS, JOURNAL_COLUMNS, ORDER_COLUMNS, PAYMENT_COLUMNS, SHIFT_COLUMNS } from './export-files';
import type { ShiftReport } from '../contract/shift';

/**
 * README.txt of a shift's export: what each file and column holds, how the files are written, how the journal's
 * hashes are recomputed, and which national formats this is a step towards (and what they would still need).
 * Plain ASCII-safe English (the file itself is UTF-8 like the others).
 */

type Columns<T extends readonly string[]> = Readonly<Record<T[number], string>>;

const SHIFT: Columns<typeof SHIFT_COLUMNS> = {
  shift_id: 'the shift\'s id (as in GET /api/v3/shifts/{id})',
  number: 'the shift\'s number on this engine (1, 2, 3 ... at opening)',
  status: 'open or closed',
  report: 'X (an open shift: the figures so far) or Z (a closed shift: its Z report, which never changes)',
  z_number: 'the Z number given at closing (1, 2, 3 ... without gaps); empty while open',
  opened_at: 'when the shift was opened (ISO 8601, UTC)',
  closed_at: 'when it was closed (ISO 8601, UTC); empty while open',
  staff: 'who opened it, as entered',
  currency: 'the base currency of every amount in this row',
  opening_float: 'cash in the drawer at opening',
  orders_count: 'orders sold in the shift',
  orders_total: 'their total, in the base currency at sale time (gross)',
  cancellations_count: 'cancellations made in the shift (of orders of any shift)',
  cancellations_total: 'their total, in the base currency',
  cash_sales: 'cash taken for sales in the base currency (what was paid, not what was tendered)',
  cash_refunds: 'cash given back for cancellations in the base currency',
  pay_ins: 'cash put into the drawer (cash_movements.csv, payIn)',
  pay_outs: 'cash taken out of the drawer (cash_movements.csv, payOut)',
  expected: 'opening_float + cash_sales - cash_refunds + pay_ins - pay_outs',
  counted: 'the cash counted at closing; empty while open',
  difference: 'counted - expected; empty while open',
  note: 'the note given at closing',
  first_seq: 'the first journal entry of the shift (its shiftOpened entry)',
  last_seq: 'the last journal entry of the shift (its shiftClosed entry once closed)',
  last_hash: 'the hash of that last entry: it commits to every entry before it',
};
const JOURNAL: Columns<typeof JOURNAL_COLUMNS> = {
  seq: 'the entry\'s place in the engine\'s journal (1, 2, 3 ... across all shifts; a shift\'s entries are a part of it)',
  at: 'when it was written (ISO 8601, UTC, milliseconds)',
  kind: 'order, cancellation, payIn, payOut, shiftOpened or shiftClosed',
  ref: 'the order id (order, cancellation), the movement id (payIn, payOut) or the shift id (shiftOpened, shiftClosed)',
  amount: 'the order total, the amount given back, the movement, the opening float or the counted cash; empty when the entry has none',
  currency: 'the currency of amount',
  prev_hash: 'the hash of the entry before it in the journal (64 zeros before the first entry)',
  hash: 'lowercase hex SHA-256 of prev_hash followed by the canonical JSON of the entry without its hash',
  data: 'the entry\'s data as canonical JSON (keys sorted at every depth, no spaces); shiftClosed holds the whole Z report',
};
const ORDERS: Columns<typeof ORDER_COLUMNS> = {
  seq: 'the order\'s journal entry',
  at: 'when it was sold (ISO 8601, UTC)',
  order_id: 'the order\'s id',
  total: 'its total in the currency it was sold in',
  currency: 'that currency',
  base_total: 'its total in the base currency, priced at sale time (= total when sold in the base currency)',
  base_currency: 'the base currency',
  tickets: 'tickets sold in it',
  payments: 'how it was paid: method=amount CURRENCY, several joined by ; (e.g. giftCard=500 EUR;cash=700 EUR)',
};
const CANCELLATIONS: Columns<typeof CANCELLATION_COLUMNS> = {
  seq: 'the cancellation\'s journal entry',
  at: 'when it was cancelled (ISO 8601, UTC)',
  order_id: 'the order cancelled (it may have been sold in another shift)',
  amount: 'what was given back',
  currency: 'its currency',
  base_total: 'the order\'s total in the base currency',
  base_currency: 'the base currency',
  refunds: 'how it was given back: method=amount CURRENCY, several joined by ;',
};
const PAYMENTS: Columns<typeof PAYMENT_COLUMNS> = {
  method: 'cash, card, giftCard, external ...',
  currency: 'the currency paid in (base-currency rows first); cash in another currency is counted apart from the drawer',
  count: 'orders of the shift using this method in this currency',
  total: 'the sum paid by it',
};
const MOVEMENTS: Columns<typeof CASH_MOVEMENT_COLUMNS> = {
  seq: 'the movement\'s journal entry',
  at: 'when it was made (ISO 8601, UTC)',
  movement_id: 'its id',
  kind: 'payIn (cash put in) or payOut (cash taken out)',
  amount: 'how much',
  currency: 'the base currency',
  reason: 'the reason given',
};
const EVENTS: Columns<typeof EVENT_COLUMNS> = {
  event_id: 'the event\'s id',
  name: 'its name when sold',
  tickets: 'tickets sold for it in the shift',
  total: 'their total in the base currency',
  currency: 'the base currency',
};

const FILES: readonly [string, string, Readonly<Record<string, string>>][] = [
  ['shift.csv', 'one row: the shift and its totals (the X or Z report)', SHIFT],
  ['journal.csv', 'every journal entry of the shift, in seq order', JOURNAL],
  ['orders.csv', 'one row per order sold in the shift', ORDERS],
  ['cancellations.csv', 'one row per cancellation made in the shift', CANCELLATIONS],
  ['payments.csv', 'one row per payment method and currency (the report\'s byMethod)', PAYMENTS],
  ['cash_movements.csv', 'one row per pay-in or pay-out', MOVEMENTS],
  ['events.csv', 'one row per event sold in the shift (the report\'s byEvent)', EVENTS],
];

/** The README.txt of one shift's export. */
export function exportReadme(report: ShiftReport): string {
  const { shift } = report;
  const { kind } = report;
  const title = `Kassa shift export: shift ${shift.number}${shift.zNumber === undefined ? '' : `, Z ${shift.zNumber}`} (${kind} report)`;
  const lines = [
    title,
    '='.repeat(title.length),
    '',
    kind === 'Z'
      ? 'The shift is closed: these figures are its Z report and never change.'
      : 'The shift is still open: this is an X export, the figures so far. Export it again after closing for its Z report.',
    '',
    'Format',
    '------',
    '- Encoding UTF-8 (no byte-order mark); separator comma; records end with CRLF; quoting as RFC 4180 (a field',
    '  holding a comma, a double quote or a line break is in double quotes, a double quote inside it doubled).',
    '- The first record of each file names its columns.',
    '- Amounts are integers in minor units (EUR 12.50 is 1250; JPY has none, so 1250 is JPY 1250), always next to',
    '  a column naming the ISO 4217 currency. Times are ISO 8601 in UTC.',
    '- Import the files as text (a spreadsheet that opens them by double-click may read a value such as -250 or',
    '  a reason starting with = as a formula).',
    '',
    'Checking the journal',
    '--------------------',
    'Each row of journal.csv is one entry of the engine\'s hash-chained journal. To recompute hash: build the JSON',
    'object {seq, at, kind, ref, amount, data, prevHash} (amount as {"amount":N,"currency":"CUR"}, left out when',
    'empty; data as in the data column), write it as canonical JSON (keys sorted at every depth, no spaces), put',
    'prev_hash in front and take the lowercase hex SHA-256. Each prev_hash is the hash of the row before it: a',
    'shift\'s entries follow each other in the journal (every entry written while it is open is its), so only the',
    'first prev_hash points outside the file, at the entry written just before the shift opened.',
    'GET /api/v3/journal/verify checks the whole journal on the engine.',
    '',
    ...FILES.flatMap(([file, about, columns]) => [`${file}: ${about}`, '-'.repeat(file.length + about.length + 2), ...Object.entries(columns).map(([name, text]) => `  ${name}: ${text}`), '']),
    ...NATIONAL_FORMATS,
  ];
  return `${lines.join('\r\n')}\r\n`;
}

const NATIONAL_FORMATS = [
  'National formats: what this is a step towards, and what it is not',
  '-----------------------------------------------------------------',
  'This export is not a fiscal export of any country and Kassa is not a certified till. It holds what such',
  'exports are built from: one closing (a Z report, numbered without gaps) with its totals, and every record',
  'of the shift in a hash-chained journal.',
  '',
  'Germany (KassenSichV, DSFinV-K). The DSFinV-K export is made per Z closing, as this one is. Our files map to',
  'its tables roughly so: shift.csv to Stamm_Abschluss (cashpointclosing.csv: Z_NR, Z_ERSTELLUNG, Z_START_ID,',
  'Z_ENDE_ID, Z_SE_ZAHLUNGEN, Z_SE_BARZAHLUNGEN); orders.csv and cancellations.csv to Bonkopf (transactions.csv);',
  'their payments column to Bonkopf_Zahlarten (datapayment.csv); payments.csv to Z_Zahlart (payment.csv) and,',
  'for cash per currency, Z_Waehrungen (cash_per_currency.csv); cash_movements.csv to the Einzahlung/Auszahlung',
  'business cases of Z_GV_Typ (businesscases.csv). Still missing: a TSE (technical security device) certified by',
  'the BSI that signs every transaction (TSE_Transaktionen, transactions_tse.csv, and Stamm_TSE, tse.csv), the',
  'receipt lines with their VAT (Bonpos, lines.csv, Bonpos_USt, lines_vat.csv, Stamm_USt, vat.csv), the master',
  'data (Stamm_Kassen, Stamm_Orte, tax numbers), the DSFinV-K file set with its exact column names and index.xml,',
  'and the registration of the till with the tax office. The till software itself is not certified in Germany;',
  'the TSE is.',
  '',
  'France (NF525, article 286 I-3 bis CGI). Our journal gives the chaining of records NF525 asks for, and the Z',
  'report a closing. Still missing: signed (not only hashed) records and closings, closings with cumulative',
  'totals (the perpetual grand total; daily, monthly and yearly closings), a journal of technical events,',
  'signed archives, and certification of the software by an accredited body (INFOCERT for NF525, or LNE).',
  '',
  'Austria (RKSV) likewise chains each receipt to the last, but signs it with a registered signature card.',
];
