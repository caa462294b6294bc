import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concert, createCart } from '../helpers/cart-assertions';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { expectError, placeOrder, type Order } from '../helpers/orders';

/** GET /orders/{id}/tickets.pdf (contract §12 extension): the tickets as a PDF, A4 or 80 mm, for venues without a printer. */

interface Pdf {
  status: number;
  type: string | null;
  disposition: string | null;
  bytes: Buffer;
}

async function pdf(engine: TestEngine, orderId: string, query = '', key = engine.keys.ordersRead): Promise<Pdf> {
  const response = await fetch(`${engine.url}/api/v3/orders/${orderId}/tickets.pdf${query}`, { headers: { 'x-svc-api-key': key } });
  return { status: response.status, type: response.headers.get('content-type'), disposition: response.headers.get('content-disposition'), bytes: Buffer.from(await response.arrayBuffer()) };
}

/** The page sizes (MediaBox, in points) and all text shown (pdfkit writes standard-font text as hex strings). */
function readPdf(bytes: Buffer): { pages: number[][]; text: string } {
  const raw = bytes.toString('latin1');
  const pages = [...raw.matchAll(/\/Type \/Page\b[\s\S]*?\/MediaBox \[([^\]]+)\]/g)].map((match) => (match[1] ?? '').trim().split(/\s+/).map(Number));
  let text = '';
  // Each stream is cut at its dictionary's /Length, not at the next "endstream": deflated bytes may end in a
  // carriage return (or hold the word itself), and a regex cut there drops that page's text at random.
  for (const match of raw.matchAll(/\/Length (\d+)\b[^]*?>>\s*stream\r?\n/g)) {
    const start = (match.index ?? 0) + match[0].length;
    const body = bytes.subarray(start, start + Number(match[1]));
    let content: string;
    try {
      content = inflateSync(body).toString('latin1');
    } catch {
      continue; // not a deflated content stream (fonts, metadata): no text in it
    }
    for (const hex of content.matchAll(/<([0-9a-fA-F]+)>/g)) text += Buffer.from(hex[1] ?? '', 'hex').toString('latin1');
    text += '\n';
  }
  return { pages, text };
}

describe('GET /orders/{id}/tickets.pdf', () => {
  let engine: TestEngine;
  let order: Order;
  beforeAll(async () => {
    engine = await startTestEngine({ printTimeZone: 'Europe/Berlin' });
    const cart = await createCart(engine, [concert(4)]);
    order = await placeOrder(engine, cart.id, cart.total);
  });
  afterAll(() => engine.close());

  it('answers an A4 PDF, three tickets to a page, each with event, date and code', async () => {
    const answer = await pdf(engine, order.id, '?size=a4');
    expect(answer.status).toBe(200);
    expect(answer.type).toBe('application/pdf');
    expect(answer.disposition).toBe(`attachment; filename="tickets-${order.id}-a4.pdf"`);
    expect(answer.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const { pages, text } = readPdf(answer.bytes);
    expect(pages).toHaveLength(2); // four tickets: 3 + 1
    for (const box of pages) expect(box.map(Math.round)).toEqual([0, 0, 595, 842]);
    for (const ticket of order.tickets) expect(text).toContain(ticket.code);
    expect(text).toContain('Friday, 12 March 2027 at 20:30');
  });

  it('answers an 80 mm PDF, one ticket per page, A4 by default', async () => {
    const roll = readPdf((await pdf(engine, order.id, '?size=80mm')).bytes);
    expect(roll.pages).toHaveLength(4);
    for (const box of roll.pages) expect(Math.round(box[2] ?? 0)).toBe(227); // 80 mm in points
    const fallback = readPdf((await pdf(engine, order.id)).bytes);
    expect(fallback.pages).toHaveLength(2);
  });

  it('answers errors in the envelope', async () => {
    const bad = await pdf(engine, order.id, '?size=letter');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.bytes.toString('utf8'))).toMatchObject({ error: { code: 'INVALID_FIELD_VALUE' } });
    expectError(await engine.request('GET', '/orders/ord_nope/tickets.pdf'), 404, 'RESOURCE_NOT_FOUND', 'orderId');
    expect((await pdf(engine, order.id, '', engine.keys.carts)).status).toBe(403);
  });
});
