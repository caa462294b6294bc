import type { ImportOrder, ImportResult } from '../contract/import';
import type { OrderRow } from '../store/order-repo';
import type { OutboxRow } from '../store/outbox-repo';
import type { Clock, Durability, Storage } from '../shared/context';
import type { OrderLines } from '../orders/order-view';
import type { Channel } from './channel';
import { hubGiftCardsOf } from '../checkout/hub-hold';
import { deliverRelease } from './hub-gift-cards';
import { refused, type Delivery } from './refusal';
import { dataOf, errorOf } from './upstream';

/**
 * Delivers up to a batch of order entries to a Kassa hub in one request (POST /orders/import, contract
 * §10): each order whole — items, extras, vouchers, currency, expected total — under the entry's fixed
 * Idempotency-Key with the local order id as reference — and its gift cards: the codes it issued, the parts held
 * at the hub under its attempt's id (issue #24). The hub creates each in one transaction or refuses
 * it whole, and answers a repeat (a lost answer, a crash, any delay) with the order it made the first time.
 * No cart, so no hold is left upstream when an answer is lost.
 */
export async function deliverBatch(
  ctx: Storage & Clock & Durability,
  hub: Channel,
  entries: readonly OutboxRow[],
  /** the hub takes the tickets' codes (it offers `checkins`, issue #26); an older hub refuses the unknown field */
  withTickets = true,
): Promise<Map<number, Delivery>> {
  const outcomes = new Map<number, Delivery>();
  const sending: { entry: OutboxRow; body: ImportOrder }[] = [];
  for (const entry of entries) {
    // The order's row is all an import needs (not its tickets, gift cards or show, which the API's view adds).
    const order = await ctx.store.repos.orders.get(entry.orderId);
    if (!order) throw new Error(`order ${entry.orderId} of outbox entry ${String(entry.id)} is missing`);
    // Cancelled here before it was ever sent: nothing to send. Once sent, it may be upstream (a lost answer):
    // it goes again — the hub answers the order it made — and its cancellation follows it.
    if (order.status === 'cancelled' && entry.upstreamOrderId === null && entry.sentAt === null) outcomes.set(entry.id, await cancelledBeforeSent(ctx, hub, entry, order));
    else sending.push({ entry, body: await importOf(ctx, entry, order, withTickets) });
  }
  if (sending.length === 0) return outcomes;
  const now = ctx.now();
  await ctx.store.transaction(async (tx) => {
    for (const { entry } of sending) await tx.outbox.markSent(entry.id, now);
  });
  // the marks are on the disk before the hub hears of the orders (group commit: store/durability.ts)
  await ctx.whenDurable();

  const answer = await hub.post('/orders/import', { orders: sending.map((item) => item.body) }, { repeatable: true });
  const results = answer.status === 200 ? dataOf<{ results: ImportResult[] }>(answer)?.results : undefined;
  if (!results && answer.status === 400 && sending.length > 1) {
    // The hub refused the request as a whole (one order it cannot even read): each order on its own, so
    // that only that one lands in the conflict inbox.
    for (const { entry } of sending) for (const [id, outcome] of await deliverBatch(ctx, hub, [entry], withTickets)) outcomes.set(id, outcome);
    return outcomes;
  }
  if (!results) {
    const whole: Delivery =
      answer.status === 404 && errorOf(answer)?.code !== 'INSUFFICIENT_PERMISSIONS'
        ? { kind: 'retry', reason: 'the upstream no longer offers the order import', rediscover: true, afterSteps: 5 }
        : refused(answer);
    for (const { entry } of sending) outcomes.set(entry.id, whole);
    return outcomes;
  }
  const byKey = new Map(results.map((result) => [result.idempotencyKey, result]));
  for (const { entry } of sending) {
    const result = byKey.get(entry.idempotencyKey);
    if (result?.status === 201 && result.order) outcomes.set(entry.id, { kind: 'delivered', upstreamOrderId: result.order.id });
    else if (result) outcomes.set(entry.id, refused({ status: result.status, body: { error: result.error }, retryAfter: undefined }));
    else outcomes.set(entry.id, { kind: 'retry', reason: 'the upstream answered no result for this order', afterSteps: 1 });
  }
  return outcomes;
}

/**
 * An order cancelled here before it was ever sent: nothing to import. Gift-card parts it held at the hub (issue #24)
 * are released there instead — they would never be settled by an import.
 */
async function cancelledBeforeSent(ctx: Storage, hub: Channel, entry: OutboxRow, order: OrderRow): Promise<Delivery> {
  const attempt = await ctx.store.repos.checkout.attemptForOrder(order.id);
  const atHub = attempt === undefined ? undefined : hubGiftCardsOf(attempt);
  if (attempt === undefined || atHub?.parts === undefined || atHub.parts.length === 0) return { kind: 'delivered', upstreamOrderId: null };
  return deliverRelease(hub, attempt.id, entry.attempts === 0);
}

/**
 * The gift cards of a terminal's order (issue #24): the codes it issued (the hub issues the same cards), and the
 * parts its payment held at the hub under its attempt's id, which the import settles into the imported order.
 */
async function giftCardsOf(ctx: Storage, order: OrderRow): Promise<Pick<ImportOrder, 'giftCardCodes' | 'payment'>> {
  const issued = await ctx.store.repos.orders.giftCards([order.id]);
  const attempt = await ctx.store.repos.checkout.attemptForOrder(order.id);
  const parts = (attempt === undefined ? undefined : hubGiftCardsOf(attempt))?.parts ?? [];
  return {
    ...(issued.length > 0 && { giftCardCodes: issued.map((card) => card.code) }),
    ...(attempt !== undefined && parts.length > 0 && {
      payment: { holdReference: attempt.id, giftCards: parts.map((part) => ({ code: part.code, amount: part.amount })) },
    }),
  };
}

async function importOf(ctx: Storage, entry: OutboxRow, order: OrderRow, withTickets: boolean): Promise<ImportOrder> {
  const lines = JSON.parse(order.lines) as OrderLines;
  const items = lines.items
    .filter((item) => item.type !== 'extra')
    .map((item) => ({ occurrenceId: item.occurrenceId ?? '', inventoryItemId: item.inventoryItemId ?? '', priceOptionId: item.priceOptionId ?? '', quantity: item.quantity }));
  const extras = lines.items.flatMap((item) => (item.type === 'extra' && item.extraId !== undefined ? [{ extraId: item.extraId, quantity: item.quantity }] : []));
  const vouchers = await ctx.store.repos.carts.voucherCodes(order.cartId);
  return {
    idempotencyKey: entry.idempotencyKey,
    reference: order.id,
    items,
    ...(extras.length > 0 && { extras }),
    ...(vouchers.length > 0 && { vouchers }),
    currency: order.currency,
    expectedTotal: { amount: order.total, currency: order.currency },
    ...(await giftCardsOf(ctx, order)),
    ...(withTickets && (await ticketsOf(ctx, order))),
  };
}

/**
 * The tickets a terminal's order issued, in ticket order (issue #26): the hub issues its tickets under the same codes
 * (and keeps their signed codes), so a ticket sold here offline is known at the hub and at every gate that asks it.
 */
async function ticketsOf(ctx: Storage, order: OrderRow): Promise<Pick<ImportOrder, 'tickets'>> {
  const tickets = await ctx.store.repos.orders.tickets([order.id]);
  return tickets.length === 0 ? {} : { tickets: tickets.map((ticket) => ({ code: ticket.code, ...(ticket.signedCode != null && { signedCode: ticket.signedCode }) })) };
}
