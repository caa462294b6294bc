import { useRef, useState, type KeyboardEvent } from 'react';
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
  /**
   * At most this many in the whole area, all price options together (gift cards: one per cart). Such an area
   * shows no availability count — a gift card's "capacity" is a catalog formality, not stock a buyer weighs.
   */
  limit?: number;
}

export function GeneralAdmission({ t, locale, area, quantities, onQuantity, limit }: GeneralProps) {
  const chosen = limit === undefined ? 0 : Object.entries(quantities).reduce((sum, [key, quantity]) => (area.inventoryItems.some((item) => key.startsWith(`${item.id}|`)) ? sum + quantity : sum), 0);
  return (
    <div className="general">
      {area.inventoryItems.map((item) => (
        <div key={item.id} className="inventory-item">
          {(limit === undefined || item.available <= 0) && (
            <p className="availability">{item.available > 0 ? t('tickets.available', { count: item.available }) : t('tickets.soldOut')}</p>
          )}
          {area.priceOptions.map((option) => {
            const key = quantityKey(item.id, option.id);
            const quantity = quantities[key] ?? 0;
            const most = Math.min(100, item.available + quantity, limit === undefined ? 100 : limit - chosen + quantity);
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
                    max={most}
                    aria-label={option.name}
                    value={quantity}
                    onFocus={(event) => event.target.select()}
                    onChange={(event) => {
                      const next = Number(event.target.value);
                      if (Number.isInteger(next) && next >= 0) onQuantity(key, limit === undefined ? next : Math.min(next, most));
                    }}
                  />
                  <button type="button" className="round" aria-label={t('tickets.more', { name: option.name })} disabled={limit !== undefined && quantity >= most} onClick={() => onQuantity(key, quantity + 1)}>
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
  /** box office (#22): staff click or use the keys; "tap" is the kiosk's word */
  staff?: boolean;
}

type SeatState = 'mine' | 'free' | 'held' | 'sold';

function seatState(seat: Area['inventoryItems'][number], mine: boolean): SeatState {
  if (mine) return 'mine';
  if (seat.available > 0) return 'free';
  // The engine says whether a taken seat is sold or held in a cart that may still give it back.
  return (seat.held ?? 0) > 0 ? 'held' : 'sold';
}

/**
 * The seat map: the stage on top, rows below, a legend. One Tab stop for the whole map; the arrow keys
 * move between seats (Home/End to a row's ends), Enter or Space takes or gives back the seat in focus.
 */
export function SeatMap({ t, locale, area, chosen, priceOptionId, onPriceOption, onSeat, disabled, staff = false }: SeatMapProps) {
  const rows: Area['inventoryItems'][] = [];
  const rowNames: string[] = [];
  for (const seat of area.inventoryItems) {
    const row = /^Row (\S+),/.exec(seat.label ?? '')?.[1] ?? seat.id.replace(/\d+$/, '');
    const index = rowNames.indexOf(row);
    if (index >= 0) rows[index]?.push(seat);
    else {
      rowNames.push(row);
      rows.push([seat]);
    }
  }
  const [focus, setFocus] = useState<{ row: number; seat: number }>({ row: 0, seat: 0 });
  const grid = useRef<HTMLDivElement>(null);
  const move = (row: number, seat: number) => {
    const r = Math.max(0, Math.min(rows.length - 1, row));
    const s = Math.max(0, Math.min((rows[r]?.length ?? 1) - 1, seat));
    setFocus({ row: r, seat: s });
    grid.current?.querySelector<HTMLButtonElement>(`[data-seat="${r}-${s}"]`)?.focus();
  };
  const onKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const { row, seat } = focus;
    const last = (rows[row]?.length ?? 1) - 1;
    const target =
      event.key === 'ArrowRight' ? [row, seat + 1] :
      event.key === 'ArrowLeft' ? [row, seat - 1] :
      event.key === 'ArrowDown' ? [row + 1, seat] :
      event.key === 'ArrowUp' ? [row - 1, seat] :
      event.key === 'Home' ? [row, 0] :
      event.key === 'End' ? [row, last] : null;
    if (!target) return;
    event.preventDefault();
    move(target[0] ?? 0, target[1] ?? 0);
  };
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
      <p className="hint">{t(staff ? 'boxOffice.seatsHint' : 'seats.legend')}</p>
      <ul className="seat-legend" aria-label={t('seats.legendLabel')}>
        {(['free', 'mine', 'held', 'sold'] as const).map((state) => (
          <li key={state}>
            <span className={`swatch is-${state}`} aria-hidden="true" />
            {t(`seat.${state}`)}
          </li>
        ))}
      </ul>
      <p className="stage" aria-hidden="true">
        {t('seats.stage')}
      </p>
      <div className="rows" role="group" aria-label={area.name} ref={grid} onKeyDown={onKey}>
        {rows.map((seats, r) => (
          <div key={rowNames[r]} className="row">
            <span className="row-label" aria-hidden="true">
              {rowNames[r]}
            </span>
            {seats.map((seat, i) => {
              const state = seatState(seat, chosen.has(seat.id));
              const unavailable = state === 'held' || state === 'sold';
              return (
                <button
                  key={seat.id}
                  type="button"
                  data-seat={`${r}-${i}`}
                  tabIndex={focus.row === r && focus.seat === i ? 0 : -1}
                  className={`seat is-${state}`}
                  aria-pressed={state === 'mine'}
                  aria-label={`${seat.label ?? seat.id}, ${t(`seat.${state}`)}`}
                  aria-disabled={disabled || unavailable}
                  onFocus={() => setFocus({ row: r, seat: i })}
                  onClick={() => {
                    if (!disabled && !unavailable) onSeat(seat.id);
                  }}
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
