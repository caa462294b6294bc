import { useMemo, useState } from 'react';
import type { Cart, Inventory } from '../../api/types';
import { GeneralAdmission, quantityKey, SeatMap, type Quantities } from '../../components/TicketChoosers';
import { useLocale, useT } from '../../i18n/i18n';
import { cartStore, useCart, type TicketRequest } from '../../stores/cart';
import { catalogStore, useCatalog } from '../../stores/catalog';

/**
 * Tickets of the chosen date. Seats go straight into a new cart (naming the previous one); quantities of
 * general admission are held with one button. What the cart holds comes from the engine's answer.
 */
export function TicketPicker({ holdLabel }: { holdLabel?: string }) {
  const t = useT();
  const locale = useLocale();
  const inventory = useCatalog((state) => state.inventory);
  const cart = useCart((state) => state.cart);
  const busy = useCart((state) => state.busy);
  const held = useMemo(() => heldHere(cart, inventory), [cart, inventory]);
  // Quantities being typed, until held; a new answer from the engine (a new cart) starts them afresh.
  const [draft, setDraft] = useState<{ from: Quantities; values: Quantities } | null>(null);
  const quantities = draft && draft.from === held.quantities ? draft.values : held.quantities;
  const [seatPrice, setSeatPrice] = useState<Record<string, string>>({});

  if (!inventory) return <p className="hint">{t('tickets.choose')}</p>;

  const choose = async (items: TicketRequest[]) => {
    await cartStore.getState().ticketsChosen(items);
    await catalogStore.getState().inventoryRefreshed(cartStore.getState().cart?.currency ?? cartStore.getState().currency);
  };
  const seatItems = (seats: ReadonlyMap<string, string>) =>
    [...seats].map(([seat, priceOptionId]) => ({ occurrenceId: inventory.occurrenceId, inventoryItemId: seat, priceOptionId, quantity: 1 }));
  const generalItems = () =>
    Object.entries(quantities)
      .filter(([, quantity]) => quantity > 0)
      .map(([key, quantity]) => {
        const [inventoryItemId = '', priceOptionId = ''] = key.split('|');
        return { occurrenceId: inventory.occurrenceId, inventoryItemId, priceOptionId, quantity };
      });
  const generalChanged = Object.keys({ ...quantities, ...held.quantities }).some((key) => (quantities[key] ?? 0) !== (held.quantities[key] ?? 0));

  return (
    <section className="tickets" aria-labelledby="tickets-heading">
      <h2 id="tickets-heading">{t('tickets.heading')}</h2>
      {inventory.areas.map((area) => (
        <section key={area.id} className="area" aria-labelledby={`area-${area.id}`}>
          <h3 id={`area-${area.id}`}>{area.name}</h3>
          {area.seating === 'general' ? (
            <GeneralAdmission t={t} locale={locale} area={area} quantities={quantities} onQuantity={(key, quantity) => setDraft({ from: held.quantities, values: { ...quantities, [key]: quantity } })} />
          ) : (
            <SeatMap
              t={t}
              locale={locale}
              area={area}
              chosen={held.seats}
              disabled={busy}
              priceOptionId={seatPrice[area.id] ?? area.priceOptions[0]?.id ?? ''}
              onPriceOption={(priceOptionId) => setSeatPrice({ ...seatPrice, [area.id]: priceOptionId })}
              onSeat={(seat) => {
                const seats = new Map(held.seats);
                if (seats.has(seat)) seats.delete(seat);
                else seats.set(seat, seatPrice[area.id] ?? area.priceOptions[0]?.id ?? '');
                void choose([...generalItems(), ...seatItems(seats)]);
              }}
            />
          )}
        </section>
      ))}
      {inventory.areas.some((area) => area.seating === 'general') && (
        <button type="button" className="primary" disabled={busy || !generalChanged} onClick={() => void choose([...generalItems(), ...seatItems(held.seats)])}>
          {holdLabel ?? t('tickets.hold')}
        </button>
      )}
    </section>
  );
}

/** The admission lines of the cart for this date: general quantities and assigned seats. */
function heldHere(cart: Cart | null, inventory: Inventory | null): { quantities: Quantities; seats: ReadonlyMap<string, string> } {
  const quantities: Record<string, number> = {};
  const seats = new Map<string, string>();
  const assigned = new Set(inventory?.areas.filter((area) => area.seating === 'assigned').flatMap((area) => area.inventoryItems.map((seat) => seat.id)));
  for (const item of cart?.items ?? []) {
    if (item.type === 'extra' || item.occurrenceId !== inventory?.occurrenceId || !item.inventoryItemId || !item.priceOptionId) continue;
    if (assigned.has(item.inventoryItemId)) seats.set(item.inventoryItemId, item.priceOptionId);
    else quantities[quantityKey(item.inventoryItemId, item.priceOptionId)] = item.quantity;
  }
  return { quantities, seats };
}
