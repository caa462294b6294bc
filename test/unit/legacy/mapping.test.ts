import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Cart } from '../../../engine/contract/cart';
import type { ReservationRequest } from '../../../engine/legacy-v1/contract';
import { ERROR_CATALOGUE, EngineError, type ErrorCode } from '../../../engine/domain/errors';
import { basketOf, v1Status } from '../../../engine/legacy-v1/answer-to-v1';
import { parseReference, renderMappingTables, toV1Money, toV3Money } from '../../../engine/legacy-v1/mapping-table';
import { planBasket, type BasketPlan, type CatalogProbe } from '../../../engine/legacy-v1/request-to-v3';

/**
 * The two mapping directions of the v1 facade, without a server: the converters of the mapping table, the
 * plan a v1 basket makes for the v3 use cases, and a property test that round-trips random baskets
 * v1 → v3 → v1 (and on to v3 again) and fails if any field is lost or changed on the way.
 */

const nothingKnown: CatalogProbe = () => false;

describe('mapping table converters', () => {
  it('money: {amount, currency} ↔ {value, currency, decimalPlaces}, the scale from ISO 4217', async () => {
    expect(toV1Money({ amount: 3900, currency: 'EUR' })).toEqual({ value: 3900, currency: 'EUR', decimalPlaces: 2 });
    expect(toV1Money({ amount: 4222, currency: 'JPY' })).toEqual({ value: 4222, currency: 'JPY', decimalPlaces: 0 });
    expect(toV1Money({ amount: 12345, currency: 'KWD' })).toEqual({ value: 12345, currency: 'KWD', decimalPlaces: 3 });
    expect(toV3Money(toV1Money({ amount: -500, currency: 'CHF' }))).toEqual({ amount: -500, currency: 'CHF' });
  });

  it('aggregateReference: tickets split at every colon, extras by their prefix, nonsense is refused', async () => {
    expect(parseReference('standing:standing-adult')).toEqual({ kind: 'ticket', splits: [{ inventoryItemId: 'standing', priceOptionId: 'standing-adult' }] });
    expect(parseReference('extra:parking')).toEqual({ kind: 'extra', extraId: 'parking' });
    expect(parseReference('A:1:full')).toEqual({
      kind: 'ticket',
      splits: [
        { inventoryItemId: 'A', priceOptionId: '1:full' },
        { inventoryItemId: 'A:1', priceOptionId: 'full' },
      ],
    });
    for (const bad of ['standing', ':adult', 'standing:', ':', 'extra:']) expect(parseReference(bad), bad).toBeUndefined();
  });

  it('an ambiguous reference takes the split the catalog knows', async () => {
    const probe: CatalogProbe = (occurrence, item, option) => occurrence === 'o' && item === 'A:1' && option === 'full';
    const plan = await planBasket([{ productId: 'o', aggregateReference: 'A:1:full', quantity: 1 }], probe);
    expect(plan.tickets[0]?.item).toEqual({ occurrenceId: 'o', inventoryItemId: 'A:1', priceOptionId: 'full', quantity: 1 });
  });

  it('a basket without a ticket, an extra for another occurrence and a broken reference are refused with the param in v1 terms', async () => {
    const refusal = async (reservations: ReservationRequest[]) => {
      try {
        await planBasket(reservations, nothingKnown);
      } catch (error) {
        if (error instanceof EngineError) return { code: error.code, param: error.param };
        throw error;
      }
      return undefined;
    };
    expect(await refusal([{ productId: 'o', aggregateReference: 'extra:parking', quantity: 1 }])).toEqual({ code: 'INVALID_FIELD_VALUE', param: 'reservations' });
    expect(
      await refusal([
        { productId: 'o', aggregateReference: 'a:b', quantity: 1 },
        { productId: 'p', aggregateReference: 'extra:parking', quantity: 1 },
      ]),
    ).toEqual({ code: 'MIXED_OCCURRENCES_NOT_SUPPORTED', param: 'reservations[1].productId' });
    expect(await refusal([{ productId: 'o', aggregateReference: 'nocolon', quantity: 1 }])).toEqual({
      code: 'INVALID_FIELD_VALUE',
      param: 'reservations[0].aggregateReference',
    });
  });

  it('every v3 code keeps its status in v1 but CART_EXPIRED, which answers 404 (contract §11)', async () => {
    for (const code of Object.keys(ERROR_CATALOGUE) as ErrorCode[]) {
      expect(v1Status(code), code).toBe(code === 'CART_EXPIRED' ? 404 : ERROR_CATALOGUE[code].status);
    }
  });

  it('docs/v1.md prints the mapping table exactly as the code runs it', async () => {
    const guide = readFileSync(new URL('../../../docs/v1.md', import.meta.url), 'utf8');
    expect(guide).toContain(renderMappingTables());
  });
});

// --- the round trip ---------------------------------------------------------------------------------

/** ids as catalogs write them, colons included (seat "A:1"), never empty */
const id = fc.stringMatching(/^[A-Za-z0-9:_-]{1,12}$/);
const quantity = fc.integer({ min: 1, max: 100 });
const currency = fc.constantFrom('EUR', 'JPY', 'KWD', 'USD');

const randomBasket = fc
  .record({
    occurrenceId: id,
    tickets: fc.array(fc.record({ inventoryItemId: id, priceOptionId: id, quantity, unit: fc.integer({ min: 0, max: 1_000_000 }) }), { minLength: 1, maxLength: 8 }),
    extras: fc.array(fc.record({ extraId: id, quantity, unit: fc.integer({ min: 0, max: 100_000 }), at: fc.nat() }), { maxLength: 6 }),
    vouchers: fc.uniqueArray(fc.stringMatching(/^[A-Z0-9]{1,10}$/), { maxLength: 3 }),
    currency,
    cartId: fc.uuid(),
    reference: fc.stringMatching(/^[\x21-\x7E]{1,20}$/),
  })
  // Two pairs of one occurrence spelling the same reference ("a:b"+"c" and "a"+"b:c") cannot be told apart by
  // anyone; a catalog with both is the one case the reference format cannot carry (see docs/v1.md).
  .filter(({ tickets }) => {
    const spelled = new Map<string, string>();
    return tickets.every((t) => {
      const pair = JSON.stringify([t.inventoryItemId, t.priceOptionId]);
      const reference = `${t.inventoryItemId}:${t.priceOptionId}`;
      if ((spelled.get(reference) ?? pair) !== pair) return false;
      spelled.set(reference, pair);
      return true;
    });
  });

/** The v1 request for a random basket: tickets in order, extras interleaved at random places. */
type RandomBasket = typeof randomBasket extends fc.Arbitrary<infer T> ? T : never;

function requestOf(basket: RandomBasket): ReservationRequest[] {
  const reservations: ReservationRequest[] = basket.tickets.map((t) => ({ productId: basket.occurrenceId, aggregateReference: `${t.inventoryItemId}:${t.priceOptionId}`, quantity: t.quantity }));
  for (const e of basket.extras) reservations.splice(e.at % (reservations.length + 1), 0, { productId: basket.occurrenceId, aggregateReference: `extra:${e.extraId}`, quantity: e.quantity });
  return reservations;
}

/** The cart the v3 use cases make of a plan: one line per ticket, one per extra id, prices as the catalog says. */
function cartOf(plan: BasketPlan, prices: ReadonlyMap<string, number>, vouchers: readonly string[], currencyCode: string, cartId: string): Cart {
  const money = (amount: number) => ({ amount, currency: currencyCode });
  const tickets = plan.tickets.map(({ item }, index) => {
    const unit = prices.get(`t:${item.inventoryItemId}:${item.priceOptionId}`) ?? 0;
    return { id: `itm_t${index}`, type: 'admission' as const, name: 'Ticket', ...item, unitPrice: money(unit), total: money(unit * item.quantity) };
  });
  const extras = plan.extras.map((extra, index) => {
    const unit = prices.get(`e:${extra.extraId}`) ?? 0;
    return { id: `itm_e${index}`, type: 'extra' as const, name: 'Extra', quantity: extra.quantity, unitPrice: money(unit), total: money(unit * extra.quantity), extraId: extra.extraId };
  });
  const items = [...tickets, ...extras];
  const total = items.reduce((sum, item) => sum + item.total.amount, 0);
  return {
    id: cartId,
    expiresAt: '2027-01-01T00:00:00.000Z',
    currency: currencyCode,
    total: money(total),
    items,
    receiptLines: items.map((item) => ({ type: item.type, label: item.name, sign: 1 as const, amount: item.total })),
    vouchers: vouchers.map((code) => ({ code })),
    options: { currencies: [currencyCode] },
  };
}

describe('round trip v1 → v3 → v1 (property)', () => {
  it('keeps every reservation, quantity, price, total, promotion and the cart id; and maps back to the same v3 plan', async () => {
    await fc.assert(
      fc.asyncProperty(randomBasket, async (basket) => {
        const request = requestOf(basket);
        const known = new Set(basket.tickets.map((t) => JSON.stringify([basket.occurrenceId, t.inventoryItemId, t.priceOptionId])));
        const probe: CatalogProbe = (occurrence, item, option) => known.has(JSON.stringify([occurrence, item, option]));
        const plan = await planBasket(request, probe);

        // v1 → v3: the ticket items are exactly the tickets sent, in order; the extras one per id, quantities summed
        expect(plan.tickets.map((t) => t.item)).toEqual(
          basket.tickets.map((t) => ({ occurrenceId: basket.occurrenceId, inventoryItemId: t.inventoryItemId, priceOptionId: t.priceOptionId, quantity: t.quantity })),
        );
        const summed = new Map<string, number>();
        for (const reservation of request) {
          const parsed = parseReference(reservation.aggregateReference);
          if (parsed?.kind === 'extra') summed.set(parsed.extraId, (summed.get(parsed.extraId) ?? 0) + reservation.quantity);
        }
        expect(plan.extras.map((e) => [e.extraId, e.quantity])).toEqual([...summed]);

        // v3 → v1: every line comes back under its reference, with its v3 id, quantity and money
        const prices = new Map<string, number>([
          ...basket.tickets.map((t): [string, number] => [`t:${t.inventoryItemId}:${t.priceOptionId}`, t.unit]),
          ...basket.extras.map((e): [string, number] => [`e:${e.extraId}`, e.unit]),
        ]);
        const cart = cartOf(plan, prices, basket.vouchers, basket.currency, basket.cartId);
        const answer = basketOf(basket.reference, cart);
        expect(answer.reference).toBe(basket.reference);
        expect(answer.cartId).toBe(cart.id);
        expect(answer.promotions).toEqual(cart.vouchers.map((v) => v.code));
        expect(toV3Money(answer.total)).toEqual(cart.total);
        expect(answer.reservations).toHaveLength(cart.items.length);
        answer.reservations.forEach((reservation, index) => {
          const item = cart.items[index];
          expect(reservation.reservationId).toBe(item?.id);
          expect(reservation.productId).toBe(basket.occurrenceId);
          expect(reservation.quantity).toBe(item?.quantity);
          expect(toV3Money(reservation.price)).toEqual(item?.unitPrice);
          expect(toV3Money(reservation.total)).toEqual(item?.total);
        });

        // … and v1 → v3 again: the basket as answered plans the very same v3 calls
        const again = await planBasket(
          answer.reservations.map(({ productId, aggregateReference, quantity }) => ({ productId, aggregateReference, quantity })),
          probe,
        );
        expect(again.tickets.map((t) => t.item)).toEqual(plan.tickets.map((t) => t.item));
        expect(again.extras.map(({ extraId, quantity }) => [extraId, quantity])).toEqual(plan.extras.map(({ extraId, quantity }) => [extraId, quantity]));
      }),
      { numRuns: 500 },
    );
  });
});
