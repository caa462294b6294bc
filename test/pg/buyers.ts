import { randomUUID } from 'node:crypto';
import { ALLOC, seatId } from '../fixtures/allocation-catalog';
import { call, type Answer, type Hub } from './hub';

/** Racing buyers for test/pg/multi-process.test.ts: each a client of its own (its own key), one request at a time. */

export interface Item { readonly id: string; readonly inventoryItemId?: string; readonly quantity: number }
export interface Ticket { readonly id: string; readonly itemId: string; readonly code: string; readonly signedCode?: string }
export interface Order { readonly id: string; readonly cartId: string; readonly status: string; readonly items: readonly Item[]; readonly tickets: readonly Ticket[] }
export interface Cart { readonly id: string; readonly total: { amount: number; currency: string } }

/** what one buyer saw: every answer (for the no-5xx check) and the orders it was told were made */
export interface Purchase {
  readonly answers: Answer[];
  readonly orders: Order[];
}

const line = (inventoryItemId: string, quantity: number) => ({
  occurrenceId: ALLOC.occurrenceId,
  inventoryItemId,
  priceOptionId: inventoryItemId === ALLOC.floor.inventoryItemId ? ALLOC.floor.priceOptionId : ALLOC.seats.priceOptionId,
  quantity,
});

/** `n` distinct random seats of the first `seats` */
export function randomSeats(seats: number, n: number): string[] {
  const pool = Array.from({ length: seats }, (_, i) => seatId(i));
  for (let i = pool.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [pool[i], pool[j]] = [pool[j] ?? '', pool[i] ?? ''];
  }
  return pool.slice(0, n);
}

/**
 * One buyer: `rounds` times, a cart of `wanted()` on a random process, then its checkout on another random
 * process; an order whose answer was lost (status 0: the process died) is asked again with the same
 * Idempotency-Key on the next process, twice at most. A refused cart (sold out, seat taken) ends the round.
 */
export async function buyer(hub: Hub, key: string, rounds: number, wanted: () => { items: ReturnType<typeof line>[] }): Promise<Purchase> {
  const answers: Answer[] = [];
  const orders: Order[] = [];
  const pick = () => Math.floor(Math.random() * hub.processes.length);
  for (let round = 0; round < rounds; round += 1) {
    const made = await call<{ data: Cart }>(hub, pick(), key, 'POST', '/carts', wanted());
    answers.push(made);
    if (made.status !== 201) continue;
    const cart = made.body.data;
    const idempotencyKey = randomUUID();
    let at = pick();
    for (let attempt = 0; attempt < 3; attempt += 1, at = (at + 1) % hub.processes.length) {
      const placed = await call<{ data: Order }>(hub, at, key, 'POST', '/orders', { cartId: cart.id, expectedTotal: cart.total, payment: { method: 'card', token: 'tok_visa' } }, { 'idempotency-key': idempotencyKey });
      answers.push(placed);
      if (placed.status === 201) orders.push(placed.body.data);
      if (placed.status !== 0) break;
    }
  }
  return { answers, orders };
}

/** a general-admission buyer: 1 to 3 floor places */
export const floorWanted = () => ({ items: [line(ALLOC.floor.inventoryItemId, 1 + Math.floor(Math.random() * 3))] });

/** a seat buyer: 2 random seats of the first `seats` */
export const seatsWanted = (seats: number) => () => ({ items: randomSeats(seats, 2).map((seat) => line(seat, 1)) });

/** a cart of `quantity` floor places, for the tests' own carts */
export const floorCart = (quantity: number) => ({ items: [line(ALLOC.floor.inventoryItemId, quantity)] });

/** the inventory item each ticket of `order` admits to */
export function ticketItems(order: Order): string[] {
  const byLine = new Map(order.items.map((item) => [item.id, item.inventoryItemId ?? '']));
  return order.tickets.map((ticket) => byLine.get(ticket.itemId) ?? '');
}
