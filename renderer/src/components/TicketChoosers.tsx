import type { Area } from '../api/types';
import { formatMoney } from '../format';
import type { Translate } from '../i18n/i18n';

/** Choosing tickets: quantities per price option in a general area, seats on a map in an assigned one. */

export type Quantities = Readonly<Record<string, number>>;
export const quantityKey = (inventoryItemId: string, priceOptionId: string) => `${inventoryItemId}|${priceOptionId}`;

interface GeneralProps {
  t: Translate;
  locale: string;
  area: Area;
  quantities: Quantities;
  onQuantity(key: string, quantity: number): void;
}

export function GeneralAdmission({ t, locale, area, quantities, onQuantity }: GeneralProps) {
  return (
    <div className="general">
      {area.inventoryItems.map((item) => (
        <div key={item.id} className="inventory-item">
          <p className="availability">{item.available > 0 ? t('tickets.available', { count: item.available }) : t('tickets.soldOut')}</p>
          {area.priceOptions.map((option) => {
            const key = quantityKey(item.id, option.id);
            const quantity = quantities[key] ?? 0;
            return (
              <div key={option.id} className="price-option">
                <label htmlFor={`qty-${key}`}>
                  <span className="name">{option.name}</span> <span className="price">{formatMoney(option.price, locale)}</span>
                </label>
                <span className="stepper">
                  <button type="button" className="round" aria-label={t('tickets.fewer', { name: option.name })} disabled={quantity === 0} onClick={() => onQuantity(key, quantity - 1)}>
                    −
                  </button>
                  <input
                    id={`qty-${key}`}
                    type="number"
                    min={0}
                    max={Math.min(100, item.available + quantity)}
                    aria-label={option.name}
                    value={quantity}
                    onChange={(event) => {
                      const next = Number(event.target.value);
                      if (Number.isInteger(next) && next >= 0) onQuantity(key, next);
                    }}
                  />
                  <button type="button" className="round" aria-label={t('tickets.more', { name: option.name })} onClick={() => onQuantity(key, quantity + 1)}>
                    +
                  </button>
                </span>
              </div>
            );
          })}
        </div>
      ))}
    </div>
  );
}

interface SeatMapProps {
  t: Translate;
  locale: string;
  area: Area;
  /** seat id → price option id, for the seats in the cart */
  chosen: ReadonlyMap<string, string>;
  priceOptionId: string;
  onPriceOption(priceOptionId: string): void;
  onSeat(seatId: string): void;
  disabled?: boolean;
}

export function SeatMap({ t, locale, area, chosen, priceOptionId, onPriceOption, onSeat, disabled }: SeatMapProps) {
  const rows = new Map<string, Area['inventoryItems']>();
  for (const seat of area.inventoryItems) {
    const row = /^Row (\S+),/.exec(seat.label ?? '')?.[1] ?? seat.id.replace(/\d+$/, '');
    rows.set(row, [...(rows.get(row) ?? []), seat]);
  }
  return (
    <div className="seatmap">
      <label className="field">
        {t('seats.priceFor', { area: area.name })}
        <select value={priceOptionId} onChange={(event) => onPriceOption(event.target.value)}>
          {area.priceOptions.map((option) => (
            <option key={option.id} value={option.id}>
              {option.name} — {formatMoney(option.price, locale)}
            </option>
          ))}
        </select>
      </label>
      <p className="hint">{t('seats.legend')}</p>
      <div className="rows" role="group" aria-label={area.name}>
        {[...rows].map(([row, seats]) => (
          <div key={row} className="row">
            <span className="row-label" aria-hidden="true">
              {row}
            </span>
            {seats.map((seat) => {
              const mine = chosen.has(seat.id);
              const free = seat.available > 0;
              const state = mine ? t('seat.yours') : free ? t('seat.free') : t('seat.taken');
              return (
                <button
                  key={seat.id}
                  type="button"
                  className={`seat ${mine ? 'is-mine' : free ? 'is-free' : 'is-taken'}`}
                  aria-pressed={mine}
                  aria-label={`${seat.label ?? seat.id}, ${state}`}
                  disabled={disabled || (!mine && !free)}
                  onClick={() => onSeat(seat.id)}
                >
                  {seat.id.replace(/^\D+/, '')}
                </button>
              );
            })}
          </div>
        ))}
      </div>
    </div>
  );
}
