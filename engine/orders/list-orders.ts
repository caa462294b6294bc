import { EngineError } from '../domain/errors';
import type { Order } from '../contract/order';
import type { Storage } from '../shared/context';
import { LIMITS } from '../domain/limits';
import type { OrderRow } from '../store/order-repo';
import { orderViews, type OrderLines } from './order-view';

/**
 * GET /orders (contract §4): newest first, pages joined by an opaque cursor (at most PAGE_TICKETS tickets a
 * page); or the order of one ticket. `owner`: only that owner's orders (a key without orders:any); undefined:
 * every order.
 */
export async function listOrders(ctx: Storage, query: { limit?: string; cursor?: string; ticketCode?: string }, owner?: string): Promise<{ data: Order[]; nextCursor?: string }> {
  return ctx.store.transaction(async (tx) => {
    if (query.ticketCode !== undefined) {
      const row = await tx.orders.byTicketCode(query.ticketCode.toUpperCase());
      return { data: row && (owner === undefined || row.owner === owner) ? await orderViews(tx, [row]) : [] };
    }
    const limit = query.limit === undefined ? 50 : Number(query.limit);
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const rows = owner === undefined ? await tx.orders.page(limit + 1, after) : await tx.orders.pageOf(owner, limit + 1, after);
    const page = withinTickets(rows.slice(0, limit));
    const last = page.at(-1);
    return {
      data: await orderViews(tx, page),
      ...(rows.length > page.length && last && { nextCursor: Buffer.from(JSON.stringify([last.seq])).toString('base64url') }),
    };
  }, { readOnly: true });
}

/**
 * Tickets one page holds at most (issue #22): a page of 50 orders of 1,000 tickets was 6.5 MB of JSON and held
 * the event loop — every till — for half a second and more. A page ends early, with its `nextCursor`, once the
 * next order would take it past this many tickets; it always holds at least one order.
 */
export const PAGE_TICKETS = LIMITS.maxTicketsPerOrder;

function withinTickets<T extends OrderRow>(rows: readonly T[]): T[] {
  let tickets = 0;
  const page: T[] = [];
  for (const row of rows) {
    const { items } = JSON.parse(row.lines) as OrderLines;
    tickets += items.reduce((sum, item) => sum + (item.type === 'extra' ? 0 : item.quantity), 0);
    if (page.length > 0 && tickets > PAGE_TICKETS) break;
    page.push(row);
  }
  return page;
}

function decodeCursor(cursor: string): number {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && Number.isSafeInteger(parsed[0])) return Number(parsed[0]);
  } catch {
    // fall through to the error below: any undecodable cursor is the client's mistake
  }
  throw new EngineError('INVALID_FIELD_VALUE', { param: 'cursor', details: { reason: 'unknown_cursor' } });
}
