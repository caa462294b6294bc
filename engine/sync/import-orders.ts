import { normalizeTicketCode } from '../domain/checkin';
import { parseSignedCode } from '../domain/signed-code';
import { EngineError } from '../domain/errors';
import type { Caller } from '../domain/scopes';
import type { ImportBody, ImportOrder } from '../contract/import';
import type { Order } from '../contract/order';
import { addExtrasIn } from '../carts/add-extras';
import { beginCheckoutIn, type IssuedTicket } from '../checkout/checkout-begin';
import { settleCheckoutIn } from '../checkout/checkout-settle';
import { slices } from '../shared/time-slices';
import type { Clock, GiftCardGuesses, HoldLength, Ids, PaymentLease, Storage, Syncing, TerminalRole, TicketSigning } from '../shared/context';
import { createCartIn } from '../carts/create-cart';
import type { Tx } from '../store/port';
import { orderViews } from '../orders/order-view';
import { applyVoucherIn } from '../carts/vouchers';

/**
 * POST /orders/import (contract §10, hub only): a terminal's orders, each made exactly as the cart flow
 * would — cart, extras, vouchers, checkout with its `external` payment — in one transaction of its own
 * (see below). An order either exists whole or not at all (no hold is left behind);
 * a refusal answers the error POST /carts or POST /orders would have. A repeated Idempotency-Key, or the
 * same reference again from the same key, answers the order of the first import, however long ago.
 *
 * References and idempotency keys are the importing terminal key's own (issue #22): a reference another key
 * imported first is refused for good with 409 IMPORT_REFERENCE_TAKEN — never answered with that key's order
 * (which this key could then cancel), never taken as this order made (which would swallow a real sale). The
 * terminal puts it in its conflict inbox, where staff see it. The order belongs to the importing key's owner;
 * a key of the same owner (the terminal's replaced key, `keys replace`) gets the order back like its first key.
 *
 * One transaction per order, not per batch (issue #22): a batch of 100 orders of up to
 * LIMITS.maxTicketsPerOrder tickets each held the event loop — every till of the hub — for seconds. Now the
 * loop gets a turn between orders once a slice has taken its time (shared/time-slices.ts), so the longest
 * pause is one order (~20–40 ms at the maximum). What that changes: an order is committed before the next one
 * starts, so when something unexpected stops a batch halfway (a 500, a crash) the orders before it exist; the
 * terminal sends the batch again, as it does for any lost answer, and those orders answer `replayed: true`
 * with the order made the first time — still exactly once, each order still all or nothing. Another request
 * may run between two orders of a batch (a till's sale, the same terminal's retry): each order checks its
 * stock and its reference inside its own transaction, so neither can sell a place twice nor import twice.
 * The answer still goes out once every order of the batch is on the disk (group commit, store/durability.ts).
 */

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export type ImportOutcome = {
  readonly reference: string;
  readonly idempotencyKey: string;
} & ({ readonly order: Order; readonly replayed: boolean } | { readonly error: EngineError });

export async function importOrders(ctx: Storage & Clock & Ids & HoldLength & Syncing & PaymentLease & TerminalRole & GiftCardGuesses & Partial<TicketSigning>, apiKey: Caller, body: ImportBody): Promise<ImportOutcome[]> {
  const clock = slices();
  const outcomes: ImportOutcome[] = [];
  for (const [index, order] of body.orders.entries()) {
    const named = { reference: order.reference, idempotencyKey: order.idempotencyKey };
    try {
      // the signatures checked before the order's transaction: the key ring may read the store
      const genuine = await genuineSignedCodes(ctx, order);
      outcomes.push({ ...named, ...(await ctx.store.transaction(async (tx) => importOne(ctx, tx, apiKey, order, genuine, ctx.now()))) });
    } catch (error) {
      if (!(error instanceof EngineError)) throw error;
      outcomes.push({ ...named, error: within(error, `orders[${index}]`) });
    }
    await clock.breathe();
  }
  return outcomes;
}

async function importOne(ctx: Clock & Ids & HoldLength & Syncing & PaymentLease & TerminalRole & GiftCardGuesses & Partial<TicketSigning>, tx: Tx, apiKey: Caller, order: ImportOrder, genuine: ReadonlySet<number>, now: number) {
  if (!UUID_V4.test(order.idempotencyKey)) throw new EngineError('INVALID_IDEMPOTENCY_KEY', { param: 'idempotencyKey' });
  const key = order.idempotencyKey.toLowerCase();
  // one import of a reference at a time, across processes too
  await tx.locks.named(`import:${order.reference}`);
  const earlier = await tx.imports.byKey(apiKey.keyId, key);
  if (earlier && earlier.reference !== order.reference) throw new EngineError('IDEMPOTENCY_KEY_REUSED', { param: 'idempotencyKey' });
  const known = earlier ?? (await tx.imports.byReference(order.reference));
  // the same terminal under a replaced key (keys replace: same owner) gets its order back too
  if (known && known.apiKeyId !== apiKey.keyId && (await tx.orders.owner(known.orderId))?.owner !== apiKey.owner) {
    throw new EngineError('IMPORT_REFERENCE_TAKEN', { param: 'reference' });
  }
  if (known) return { order: await readOrder(tx, known.orderId), replayed: true };

  const cart = await createCartIn(ctx, tx, { items: order.items, ...(order.currency !== undefined && { currency: order.currency }) }, apiKey);
  if (order.extras !== undefined && order.extras.length > 0) await addExtrasIn(ctx, tx, cart.id, { items: order.extras });
  for (const code of order.vouchers ?? []) await applyVoucherIn(ctx, tx, cart.id, code);
  const start = await beginCheckoutIn(
    ctx,
    tx,
    {
      apiKeyId: apiKey.keyId,
      apiKeyScopes: apiKey.scopes,
      apiKeyOwner: apiKey.owner,
      idempotencyKey: key,
      body: { cartId: cart.id, expectedTotal: order.expectedTotal, payment: { method: 'external', reference: order.reference } },
      // gift cards (issue #24): parts held here under the terminal's reference settle into this order's redemptions;
      // cards the terminal sold are issued here under the codes it printed
      imported: { giftCards: order.payment, issuedCodes: order.giftCardCodes, ...(order.tickets !== undefined && { tickets: await checkIssuedTickets(tx, order.tickets, genuine) }) },
    },
    now,
  );
  // The key names a checkout of another cart (POST /orders): beginCheckout refused it already.
  if (start.kind === 'replay') throw new EngineError('IDEMPOTENCY_KEY_REUSED', { param: 'idempotencyKey' });
  // an imported sale is in its terminal's journal, not this hub's (issue #25; the attempt says so too)
  // signed here unless the terminal signed it (issue #26: checkout-settle.ts)
  const settled = await settleCheckoutIn({ newId: ctx.newId, syncing: ctx.syncing, journal: false, ticketKeys: ctx.ticketKeys }, tx, start.attempt, { status: 'approved' }, now);
  if ('error' in settled) throw settled.error;
  await tx.imports.record({ apiKeyId: apiKey.keyId, idempotencyKey: key, reference: order.reference, orderId: settled.order.id }, now);
  return { order: settled.order, replayed: false };
}

/** Crockford base32 without I, L, O, U: the alphabet of ticket codes (checkout/codes.ts). */
const TICKET_CODE = /^[0-9A-HJKMNP-TV-Z]{20}$/;

/**
 * The tickets a terminal issued for an imported order (issue #26): the hub issues the same codes, so each is
 * normalized as a gate reads it, and a code that is not a ticket code, is named twice or is a ticket here already
 * refuses the order (400 INVALID_FIELD_VALUE `tickets[i]`, reason `malformed` / `duplicate` / `taken`) rather than
 * failing its insert (a 5xx the terminal would send again for ever). A signed code is kept as the terminal made it
 * when it is genuine (`genuine`, genuineSignedCodes); any other is not kept — the sale stands (it was made), and the
 * hub signs the ticket itself, so no code that no gate accepts is stored or printed again from here.
 */
async function checkIssuedTickets(tx: Tx, tickets: NonNullable<ImportOrder['tickets']>, genuine: ReadonlySet<number>): Promise<IssuedTicket[]> {
  const codes = tickets.map((ticket) => ticket.code.replace(/[\s-]+/g, '').toUpperCase().replace(/[IL]/g, '1').replace(/O/g, '0'));
  for (const [i, code] of codes.entries()) {
    const reason = !TICKET_CODE.test(code) ? 'malformed' : codes.indexOf(code) !== i ? 'duplicate' : (await tx.orders.byTicketCode(code)) !== undefined ? 'taken' : undefined;
    if (reason !== undefined) throw new EngineError('INVALID_FIELD_VALUE', { param: `tickets[${i}]`, details: { reason } });
  }
  return tickets.map((ticket, i) => ({
    code: codes[i] ?? ticket.code,
    ...(ticket.signedCode !== undefined && genuine.has(i) && { signedCode: ticket.signedCode }),
  }));
}

/**
 * The tickets (by their index) of an imported order whose signed code is genuine: signed by a key this hub knows (a terminal gives
 * its keys before it sells), for that ticket's code and one of the order's shows. Checked before the order's
 * transaction (verifying may read the store: a key learned since).
 */
async function genuineSignedCodes(ctx: Partial<TicketSigning>, order: ImportOrder): Promise<Set<number>> {
  const genuine = new Set<number>();
  const tickets = order.tickets ?? [];
  if (ctx.ticketKeys === undefined || tickets.every((ticket) => ticket.signedCode === undefined)) return genuine;
  const shows = new Set(order.items.map((item) => item.occurrenceId));
  // the keys the hub has, read once: a code of any other key is not genuine (and costs no look in the store each)
  const keys = new Set((await ctx.ticketKeys.list()).map((key) => key.keyId));
  // up to LIMITS.maxTicketsPerOrder signatures (~0.1 ms each): in slices, the loop gets its turns (issue #22)
  const clock = slices();
  for (const [i, ticket] of tickets.entries()) {
    const keyId = ticket.signedCode === undefined ? undefined : parseSignedCode(ticket.signedCode)?.keyId;
    if (ticket.signedCode === undefined || keyId === undefined || !keys.has(keyId)) continue;
    const signed = await ctx.ticketKeys.verify(ticket.signedCode);
    if (signed !== undefined && normalizeTicketCode(signed.code) === normalizeTicketCode(ticket.code) && shows.has(signed.occurrenceId)) genuine.add(i);
    await clock.breathe();
  }
  return genuine;
}

async function readOrder(tx: Tx, orderId: string): Promise<Order> {
  const row = await tx.orders.get(orderId);
  if (!row) throw new Error(`imported order ${orderId} is missing`);
  const [view] = await orderViews(tx, [row]);
  if (!view) throw new Error(`imported order ${orderId} has no view`);
  return view;
}

/** The error with its param under the order it concerns, e.g. `orders[3].items[0].quantity`. */
function within(error: EngineError, prefix: string): EngineError {
  const param = error.param === undefined ? prefix : `${prefix}.${error.param}`;
  return new EngineError(error.code, { param, ...(error.details !== undefined && { details: error.details }) });
}
