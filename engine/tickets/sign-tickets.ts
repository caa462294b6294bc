import type { TicketRow } from '../store/order-repo';
import type { Tx } from '../store/port';
import type { TicketKeyRing } from './key-ring';
import { mapInSlices } from '../shared/time-slices';

/** the part of an order's items a signed code needs */
interface SoldItem { readonly id: string; readonly inventoryItemId?: string | undefined }

/**
 * A new order's tickets with their signed codes (issue #26, contract §15): each names its code, the show, the area
 * and — in an assigned-seat area — the seat's label, and the order. Without a key ring (an engine put together without
 * one) the tickets stay unsigned. Runs in the order's transaction (reads the items' places). A signature costs
 * ~40 µs, so an order of 1,000 tickets signs in slices (shared/time-slices.ts): the loop gets a turn every
 * SLICE_MS, as the rest of a large order's work does, and a sale of a few tickets never waits for one.
 */
export async function signTickets<T extends TicketRow>(
  ring: TicketKeyRing | undefined,
  tx: Tx,
  order: { readonly orderId: string; readonly occurrenceId: string; readonly items: readonly SoldItem[] },
  tickets: readonly T[],
): Promise<T[]> {
  if (ring === undefined || tickets.length === 0) return [...tickets];
  const inventoryOf = new Map(order.items.map((item) => [item.id, item.inventoryItemId]));
  const wanted = [...new Set(tickets.map((ticket) => inventoryOf.get(ticket.itemId)).filter((id) => id !== undefined))];
  const places = new Map((await tx.ticketKeys.places(order.occurrenceId, wanted)).map((place) => [place.inventoryItemId, place]));
  return mapInSlices(tickets, (ticket) => {
    const inventoryItemId = inventoryOf.get(ticket.itemId);
    const place = inventoryItemId === undefined ? undefined : places.get(inventoryItemId);
    if (place === undefined) return ticket;
    const signedCode = ring.sign({ code: ticket.code, occurrenceId: order.occurrenceId, areaId: place.areaId, seat: place.seat, orderId: order.orderId });
    return { ...ticket, signedCode };
  });
}
