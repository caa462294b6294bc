import { useEffect, useMemo, useRef, useState } from 'react';
import { useConfirm } from '../../components/ConfirmDialog';
import type { Cart, Inventory } from '../../api/types';
import { GeneralAdmission, quantityKey, SeatMap, type Quantities } from '../../components/TicketChoosers';
import { useLocale, useT } from '../../i18n/i18n';
import { cartStore, useCart, type TicketRequest } from '../../stores/cart';
import { catalogStore, useCatalog } from '../../stores/catalog';
import { useSession } from '../../stores/session';
import { GIFT_CARDS_PER_CART, isGiftCardEvent } from './gift-cards';

/**
 * Tickets of the chosen date. Seats go straight into a new cart (naming the previous one); quantities of
 * general admission are typed (Enter holds them) or stepped, and held with one button. What the cart holds
 * comes from the engine's answer. Tickets held for another date are only given up after a confirmation.
 * With `onDone` (the kiosk) the button holds what changed and moves on in one tap.
 */
export function TicketPicker({ holdLabel, onDone, focusFirst = false }: { holdLabel?: string; onDone?(): void; focusFirst?: boolean }) {
  const t = useT();
  const locale = useLocale();
  const inventory = useCatalog((state) => state.inventory);
  const giftCards = useCatalog((state) => isGiftCardEvent(state.events.find((event) => event.id === state.inventory?.eventId)));
  const cart = useCart((state) => state.cart);
  const busy = useCart((state) => state.busy);
  const staff = useSession((state) => state.mode === 'boxOffice');
  const held = useMemo(() => heldHere(cart, inventory), [cart, inventory]);
  // Quantities being typed, until held; a new answer from the engine (a new cart) starts them afresh.
  const [draft, setDraft] = useState<{ from: Quantities; values: Quantities } | null>(null);
  const quantities = draft && draft.from === held.quantities ? draft.values : held.quantities;
  const [seatPrice, setSeatPrice] = useState<Record<string, string>>({});
  const confirm = useConfirm(t);
  const form = useRef<HTMLFormElement>(null);
  const shownFor = inventory?.occurrenceId;
  // Staff type quantities straight away: a new date puts the cursor in its first quantity.
  useEffect(() => {
    // box office (#22): a seated date puts it on the seat map (its one Tab stop) instead
    if (focusFirst && shownFor) form.current?.querySelector<HTMLElement>('input[type="number"], .rows [tabindex="0"]')?.focus();
  }, [focusFirst, shownFor]);

  if (!inventory) return <p className="hint">{t('tickets.choose')}</p>;

  const elsewhere = (cart?.items ?? []).filter((item) => item.type !== 'extra' && item.occurrenceId && item.occurrenceId !== inventory.occurrenceId);
  const choose = async (items: TicketRequest[]): Promise<boolean> => {
    if (elsewhere.length > 0) {
      const yes = await confirm.ask({
        title: t('tickets.replaceTitle'),
        body: <p>{t('tickets.replaceBody', { tickets: elsewhere.map((item) => `${item.quantity} × ${item.name}`).join(', ') })}</p>,
        confirm: t('tickets.replace'),
      });
      if (!yes) return false;
    }
    await cartStore.getState().ticketsChosen(items);
    await catalogStore.getState().inventoryRefreshed(cartStore.getState().cart?.currency ?? cartStore.getState().currency);
    return cartStore.getState().error === null;
  };
  const done = async () => {
    if (generalChanged && !(await choose([...generalItems(), ...seatItems(held.seats)]))) return;
    if (cartStore.getState().cart) onDone?.();
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
    <form
      ref={form}
      className="tickets"
      aria-labelledby="tickets-heading"
      onSubmit={(event) => {
        event.preventDefault();
        if (!busy) void done();
      }}
    >
      {confirm.dialog}
      <h2 id="tickets-heading">{t(giftCards ? 'giftCards.heading' : 'tickets.heading')}</h2>
      {inventory.areas.map((area) => (
        <section key={area.id} className="area" aria-labelledby={`area-${area.id}`}>
          <h3 id={`area-${area.id}`}>{area.name}</h3>
          {area.seating === 'general' ? (
            <GeneralAdmission
              t={t}
              locale={locale}
              area={area}
              quantities={quantities}
              {...(giftCards && { limit: GIFT_CARDS_PER_CART })}
              onQuantity={(key, quantity) => setDraft({ from: held.quantities, values: { ...quantities, [key]: quantity } })}
            />
          ) : (
            <SeatMap
              t={t}
              locale={locale}
              area={area}
              chosen={held.seats}
              disabled={busy}
              staff={staff}
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
      {(onDone || inventory.areas.some((area) => area.seating === 'general')) && (
        <button type="submit" className="primary big hold-button" disabled={busy || (onDone ? !generalChanged && !cart : !generalChanged)}>
          {holdLabel ?? t('tickets.hold')}
        </button>
      )}
    </form>
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
