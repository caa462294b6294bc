import { isIsoCurrency, scaleOf } from './currencies';
import { EngineError } from './errors';
import { isSafeImageUrl } from './image-url';
import { LIMITS } from './limits';
import { convertMinorExact, parseDecimal, RATE_BOUNDS, rateInBounds } from './money';

/**
 * Referential rules of a catalog document (contract §2) that a JSON schema cannot state. The document's
 * shape is already validated; each failure names the offending field by its JSON path.
 */

interface PricedThing { readonly price: { readonly currency: string; readonly amount: number } }
interface DocLike {
  readonly locations: readonly { readonly id: string; readonly currencies: readonly string[]; readonly timeZone?: string; readonly banner?: string }[];
  readonly exchangeRates?: readonly { readonly from: string; readonly to: string; readonly rate: string }[];
  readonly events: readonly {
    readonly id: string;
    readonly locationId: string;
    readonly image?: string;
    readonly extras?: readonly (PricedThing & { readonly id: string })[];
    readonly occurrences: readonly {
      readonly id: string;
      readonly areas: readonly {
        readonly id: string;
        readonly seating: 'general' | 'assigned';
        readonly priceOptions: readonly (PricedThing & { readonly id: string })[];
        readonly inventoryItems: readonly { readonly id: string; readonly capacity: number }[];
      }[];
    }[];
  }[];
  readonly vouchers?: readonly {
    readonly code: string;
    readonly percentOff?: number;
    readonly amountOff?: { readonly currency: string };
    readonly eventIds?: readonly string[];
  }[];
}

/** A zone the runtime's IANA database knows (Europe/Berlin yes, Mars/Olympus no). */
function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false; // RangeError: not a zone this runtime can show times in
  }
}

const invalid = (param: string, reason: string): EngineError => new EngineError('INVALID_FIELD_VALUE', { param, details: { reason } });

/** inventory items checked between two pauses of catalogChecks */
const CHECK_STEP = 5_000;

function requireUnique(seen: Set<string>, id: string, param: string): void {
  if (seen.has(id)) throw invalid(param, 'duplicate_id');
  seen.add(id);
}

/** Every rule at once: throws the first failure. */
export function checkCatalog(doc: DocLike): void {
  const steps = catalogChecks(doc);
  let step = steps.next();
  while (!step.done) step = steps.next();
}

/**
 * The same rules in steps: the generator pauses after each area (and every few thousand inventory items
 * inside a big one), so a caller may hand the event loop back between steps. Throws the first failure.
 */
export function* catalogChecks(doc: DocLike): Generator<void, void, undefined> {
  const baseCurrency = new Map<string, string>();
  doc.locations.forEach((location, l) => {
    if (baseCurrency.has(location.id)) throw invalid(`locations[${l}].id`, 'duplicate_id');
    location.currencies.forEach((currency, c) => {
      if (!isIsoCurrency(currency)) throw invalid(`locations[${l}].currencies[${c}]`, 'not_iso_4217');
    });
    if (location.timeZone !== undefined && !isTimeZone(location.timeZone)) throw invalid(`locations[${l}].timeZone`, 'not_iana_time_zone');
    if (location.banner !== undefined && !isSafeImageUrl(location.banner)) throw invalid(`locations[${l}].banner`, 'unsafe_image_url');
    baseCurrency.set(location.id, location.currencies[0] ?? '');
  });

  doc.exchangeRates?.forEach((rate, r) => {
    if (!isIsoCurrency(rate.from)) throw invalid(`exchangeRates[${r}].from`, 'not_iso_4217');
    if (!isIsoCurrency(rate.to)) throw invalid(`exchangeRates[${r}].to`, 'not_iso_4217');
    const value = parseDecimal(rate.rate);
    if (value?.units === 0n) throw invalid(`exchangeRates[${r}].rate`, 'zero_rate');
    if (value && !rateInBounds(value)) {
      throw new EngineError('INVALID_FIELD_VALUE', { param: `exchangeRates[${r}].rate`, details: { reason: 'rate_out_of_range', min: RATE_BOUNDS.min, max: RATE_BOUNDS.max } });
    }
  });

  /** per location: its dearest price and where it is, for the check of converted prices below */
  const dearest = new Map<string, { amount: number; param: string }>();
  const eventIds = new Set<string>();
  const occurrenceIds = new Set<string>();
  for (const [e, event] of doc.events.entries()) {
    const at = `events[${e}]`;
    requireUnique(eventIds, event.id, `${at}.id`);
    const base = baseCurrency.get(event.locationId);
    if (base === undefined) throw invalid(`${at}.locationId`, 'unknown_location');
    if (event.image !== undefined && !isSafeImageUrl(event.image)) throw invalid(`${at}.image`, 'unsafe_image_url');
    const inBase = (thing: PricedThing, param: string): void => {
      if (thing.price.currency !== base) throw invalid(`${param}.price.currency`, 'not_base_currency');
      if (thing.price.amount > (dearest.get(event.locationId)?.amount ?? -1)) dearest.set(event.locationId, { amount: thing.price.amount, param: `${param}.price.amount` });
    };
    const extraIds = new Set<string>();
    event.extras?.forEach((extra, x) => {
      requireUnique(extraIds, extra.id, `${at}.extras[${x}].id`);
      inBase(extra, `${at}.extras[${x}]`);
    });
    for (const [o, occurrence] of event.occurrences.entries()) {
      const oat = `${at}.occurrences[${o}]`;
      requireUnique(occurrenceIds, occurrence.id, `${oat}.id`);
      const areaIds = new Set<string>();
      const optionIds = new Set<string>();
      const itemIds = new Set<string>();
      for (const [a, area] of occurrence.areas.entries()) {
        const aat = `${oat}.areas[${a}]`;
        requireUnique(areaIds, area.id, `${aat}.id`);
        area.priceOptions.forEach((option, p) => {
          requireUnique(optionIds, option.id, `${aat}.priceOptions[${p}].id`);
          inBase(option, `${aat}.priceOptions[${p}]`);
        });
        for (const [i, item] of area.inventoryItems.entries()) {
          requireUnique(itemIds, item.id, `${aat}.inventoryItems[${i}].id`);
          if (area.seating === 'assigned' && item.capacity !== 1) throw invalid(`${aat}.inventoryItems[${i}].capacity`, 'assigned_seat_capacity');
          if (i % CHECK_STEP === CHECK_STEP - 1) yield;
        }
        yield;
      }
    }
  }

  checkConvertedPrices(doc, dearest);

  const codes = new Set<string>();
  for (const [v, voucher] of (doc.vouchers ?? []).entries()) {
    requireUnique(codes, voucher.code.toUpperCase(), `vouchers[${v}].code`);
    if ((voucher.percentOff === undefined) === (voucher.amountOff === undefined)) throw invalid(`vouchers[${v}]`, 'percent_or_amount_off');
    if (voucher.percentOff !== undefined && !parseDecimal(String(voucher.percentOff))) throw invalid(`vouchers[${v}].percentOff`, 'not_a_decimal');
    if (voucher.amountOff && !isIsoCurrency(voucher.amountOff.currency)) throw invalid(`vouchers[${v}].amountOff.currency`, 'not_iso_4217');
    voucher.eventIds?.forEach((id, i) => {
      if (!eventIds.has(id)) throw invalid(`vouchers[${v}].eventIds[${i}]`, 'unknown_event');
    });
    if (v % CHECK_STEP === CHECK_STEP - 1) yield;
  }
}

/**
 * Every price converted to every currency its location sells in stays within LIMITS.maxAmount (issue #22):
 * a price of 10^12 at a rate of 10^6 to a 3-decimal currency is refused here, naming the price, not met
 * later as an error while selling. Checked once per location and rate, with its dearest price.
 */
function checkConvertedPrices(doc: DocLike, dearest: ReadonlyMap<string, { amount: number; param: string }>): void {
  for (const location of doc.locations) {
    const [base] = location.currencies;
    const top = dearest.get(location.id);
    if (base === undefined || top === undefined) continue;
    doc.exchangeRates?.forEach((rate, r) => {
      if (rate.from !== base || !location.currencies.includes(rate.to)) return;
      const value = parseDecimal(rate.rate);
      if (!value) return;
      if (convertMinorExact(top.amount, value, scaleOf(base), scaleOf(rate.to)) > BigInt(LIMITS.maxAmount)) {
        throw new EngineError('INVALID_FIELD_VALUE', {
          param: top.param,
          details: { reason: 'converted_price_out_of_range', currency: rate.to, rate: `exchangeRates[${r}]`, maxAmount: LIMITS.maxAmount },
        });
      }
    });
  }
}
