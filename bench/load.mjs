// The load generator: autocannon, in a process of its own so that it never shares the engine's event loop.
// `node bench/load.mjs PLAN_JSON` warms up, measures, and prints one JSON result on stdout. `plan.urls` (instead of
// `plan.url`) spreads the connections over several engines, one autocannon instance each (in this one process),
// their requests counted together and per engine (`perUrl`).
//
// Every request is timed from the moment autocannon builds it (just before it is written to the socket) to its
// last byte, whatever its status, per step of a scenario's chain; autocannon's own histogram (2xx only, whole
// milliseconds) is kept beside it in the result.
import autocannon from 'autocannon';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const plan = JSON.parse(process.argv[2] ?? '{}');
const urls = plan.urls ?? [plan.url];
const api = '/api/v3';
const json = { 'content-type': 'application/json' };
const keyed = { ...json, 'x-svc-api-key': plan.key ?? '' };

/**
 * Latencies (ms) and statuses per step name, of the requests sent once the warm-up is over. A request sent during
 * the warm-up is left out even if its answer comes later: right after a start, Node 20's libuv accepts one new
 * connection per turn of the event loop, so the first requests of 50 fresh connections queue in the kernel for
 * up to seconds; that ramp is kept apart as `warmupMaxMs` (the slowest request sent during the warm-up).
 */
function recorder() {
  const steps = new Map();
  return {
    from: Infinity,
    warmupMaxMs: 0,
    record(step, ms, status, sentAt) {
      if (sentAt < this.from) {
        this.warmupMaxMs = Math.max(this.warmupMaxMs, ms);
        return;
      }
      let s = steps.get(step);
      if (!s) steps.set(step, (s = { latencies: [], statuses: {} }));
      s.latencies.push(ms);
      s.statuses[status] = (s.statuses[status] ?? 0) + 1;
    },
    steps,
  };
}
const rec = recorder();

/** An autocannon request that times itself: `build(context)` returns its fields, or null to start the chain over. */
function step(name, build, after) {
  return {
    setupRequest(request, context) {
      const fields = build(context);
      if (!fields) return null;
      context.t0 = performance.now();
      return { ...request, ...fields, headers: { ...request.headers, ...fields.headers } };
    },
    onResponse(status, body, context) {
      rec.record(name, performance.now() - context.t0, status, context.t0);
      after?.(status, body, context);
    },
  };
}

const dataOf = (body) => {
  try {
    return JSON.parse(body).data;
  } catch {
    return undefined;
  }
};

const cartBody = (c) => JSON.stringify({ items: [{ occurrenceId: c.occurrenceId, inventoryItemId: c.inventoryItemId, priceOptionId: c.priceOptionId, quantity: 2 }] });
const orderBody = (cartId, total) => JSON.stringify({ cartId, expectedTotal: total, payment: { method: 'card', token: 'tok_visa' } });
const checkout = (name = 'checkout', after) =>
  step(name, (ctx) => ctx.cartId && ctx.total && { method: 'POST', path: `${api}/orders`, headers: { 'idempotency-key': randomUUID() }, body: orderBody(ctx.cartId, ctx.total) }, after);
const createCart = (name, body) =>
  step(name, () => ({ method: 'POST', path: `${api}/carts`, body }), (status, text, ctx) => {
    const cart = status === 201 ? dataOf(text) : undefined;
    ctx.cartId = cart?.id;
    ctx.total = cart?.total;
  });

async function fetchJson(base, path, init = {}) {
  const response = await fetch(`${base}${api}${path}`, { ...init, headers: { ...keyed, ...init.headers } });
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** Each scenario: the requests of one connection's loop, and what to prepare before the warm-up. */
const scenarios = {
  /** one fixed request */
  async static(p) {
    return { requests: [step(p.name ?? 'request', () => ({ method: p.method, path: p.path, body: p.body }))], headers: p.baseline ? json : keyed };
  },
  /** cart of two standing tickets, as one request */
  async createCart(p) {
    return { requests: [createCart('create cart', cartBody(p.concert))], headers: keyed };
  },
  /** a whole sale: create a cart, add an extra, apply a voucher, check out by card */
  async sale(p) {
    const body = cartBody(p.concert);
    return {
      headers: keyed,
      requests: [
        createCart('create cart', body),
        step('add extra', (ctx) => ctx.cartId && { method: 'POST', path: `${api}/carts/${ctx.cartId}/items`, body: JSON.stringify({ items: [{ extraId: p.concert.extraId, quantity: 1 }] }) }),
        step('apply voucher', (ctx) => ctx.cartId && { method: 'POST', path: `${api}/carts/${ctx.cartId}/vouchers`, body: JSON.stringify({ code: p.voucher }) },
          (status, text, ctx) => void (ctx.total = status === 200 ? dataOf(text)?.total : undefined)),
        checkout(),
      ],
    };
  },
  /**
   * create a cart, then check it out: the two writes whose cost should not grow with the order history. With
   * `p.shows` (a list like `p.concert`), each cart is for one of them picked at random: buyers spread over many
   * shows instead of all on one standing area.
   */
  async cartAndCheckout(p) {
    if (!p.shows) return { headers: keyed, requests: [createCart('create cart', cartBody(p.concert)), checkout()] };
    const bodies = p.shows.map(cartBody);
    const spread = step('create cart', () => ({ method: 'POST', path: `${api}/carts`, body: bodies[Math.floor(Math.random() * bodies.length)] }), (status, text, ctx) => {
      const cart = status === 201 ? dataOf(text) : undefined;
      ctx.cartId = cart?.id;
      ctx.total = cart?.total;
    });
    return { headers: keyed, requests: [spread, checkout()] };
  },
  /** read one of `p.carts` held carts (made here before the warm-up) */
  async readCart(p) {
    const ids = [];
    for (let i = 0; i < p.carts; i++) ids.push((await fetchJson(p.url, '/carts', { method: 'POST', body: cartBody(p.concert) })).data.id);
    let next = 0;
    return { headers: keyed, requests: [step('read cart', () => ({ method: 'GET', path: `${api}/carts/${ids[next++ % ids.length]}` }))] };
  },
  /**
   * Flash sale: every connection picks a seat among those it has not seen taken, holds it in a cart and checks
   * it out; a seat it lost (409) is struck off its list. Stops at the last sale.
   */
  async flash(p) {
    const inventory = (await fetchJson(p.url, `/occurrences/${p.occurrenceId}/inventory`)).data;
    const seats = inventory.areas.flatMap((area) =>
      area.inventoryItems.filter((item) => item.available > 0).map((item) => ({ id: item.id, priceOptionId: area.priceOptions[0].id })));
    const free = [...seats];
    const where = new Map(free.map((seat, i) => [seat.id, i]));
    const strike = (id) => {
      const i = where.get(id);
      if (i === undefined) return;
      const last = free.pop();
      where.delete(id);
      if (last.id !== id) {
        free[i] = last;
        where.set(last.id, i);
      }
    };
    const unstrike = (seat) => {
      if (where.has(seat.id)) return;
      where.set(seat.id, free.length);
      free.push(seat);
    };
    const state = { seats: seats.length, sold: 0, soldOutMs: undefined, lost: 0, start: 0, instance: undefined };
    const pick = () => {
      const pool = free.length > 0 ? free : seats;
      return pool[Math.floor(Math.random() * pool.length)];
    };
    return {
      headers: keyed,
      state,
      requests: [
        step('hold seat', (ctx) => {
          ctx.seat = pick();
          return { method: 'POST', path: `${api}/carts`, body: JSON.stringify({ items: [{ occurrenceId: p.occurrenceId, inventoryItemId: ctx.seat.id, priceOptionId: ctx.seat.priceOptionId, quantity: 1 }] }) };
        }, (status, text, ctx) => {
          strike(ctx.seat.id);
          const cart = status === 201 ? dataOf(text) : undefined;
          if (status === 409) state.lost++;
          ctx.cartId = cart?.id;
          ctx.total = cart?.total;
        }),
        checkout('checkout', (status, _text, ctx) => {
          if (status !== 201) return unstrike(ctx.seat);
          state.sold++;
          if (state.sold === state.seats) {
            state.soldOutMs = performance.now() - state.start;
            state.instance?.stop();
          }
        }),
      ],
    };
  },
};

/**
 * Check-in at the door (issue #26): `POST /checkins` of the tickets in `p.codesFile` (a JSON array of
 * `{ code, kind }`), each sent once, in order, whichever connection is free next. The run is a number of requests
 * (autocannon's `amount`: one per ticket), not a duration: a ticket admitted twice would be a refusal. The first
 * `p.warmupCheckins` are the warm-up; latencies are recorded per kind of code (step `check in, <kind>`).
 */
function checkinScenario(p) {
  const tickets = JSON.parse(readFileSync(p.codesFile, 'utf8'));
  if (tickets.length <= p.warmupCheckins) throw new Error(`checkin: ${tickets.length} tickets, warm-up ${p.warmupCheckins}`);
  let next = 0;
  return {
    headers: keyed,
    amount: tickets.length,
    countedWarmup: true,
    requests: [{
      setupRequest(request, context) {
        const i = next++;
        if (i === p.warmupCheckins) rec.from = performance.now();
        // never past the end (autocannon makes `amount` requests); a repeat would answer 409 and count as an error
        const ticket = tickets[Math.min(i, tickets.length - 1)];
        context.step = `check in, ${ticket.kind}`;
        context.t0 = performance.now();
        const body = JSON.stringify({ code: ticket.code, ...(p.occurrenceId && { occurrenceId: p.occurrenceId }), ...(p.gate && { gate: p.gate }) });
        return { ...request, method: 'POST', path: `${api}/checkins`, body, headers: { ...request.headers } };
      },
      onResponse(status, _body, context) {
        rec.record(context.step, performance.now() - context.t0, status, context.t0);
      },
    }],
  };
}
scenarios.checkin = async (p) => checkinScenario(p);

const percentile = (sorted, q) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]);
const round = (x) => Math.round(x * 100) / 100;
function summary(latencies) {
  const sorted = Float64Array.from(latencies).sort();
  const mean = sorted.reduce((a, b) => a + b, 0) / (sorted.length || 1);
  return { count: sorted.length, p50: round(percentile(sorted, 0.5)), p90: round(percentile(sorted, 0.9)), p99: round(percentile(sorted, 0.99)), mean: round(mean), max: round(sorted[sorted.length - 1] ?? 0) };
}

/** measured requests per engine (index into `urls`) */
const perUrl = urls.map(() => 0);
/** the connections of the engine at `urls[i]`: the plan's, shared out evenly */
const share = (i) => Math.floor(plan.connections / urls.length) + (i < plan.connections % urls.length ? 1 : 0);

/**
 * One autocannon run of warm-up + measurement: connections open and the server warms up during the warm-up,
 * and only responses after it count, so no connection set-up falls into the measurement. One autocannon
 * instance per engine, the connections shared out evenly; their figures are added up.
 */
function run(setups, warmup, seconds, state) {
  const instances = [];
  const done = Promise.all(urls.map((url, i) => new Promise((resolve, reject) => {
    const counted = setups[i].requests.map((request) => ({
      ...request,
      onResponse(status, body, context) {
        if (context.t0 >= rec.from) perUrl[i] += 1;
        request.onResponse(status, body, context);
      },
    }));
    instances.push(autocannon({
      url,
      connections: share(i),
      // a scenario of so many requests (each ticket checked in once) runs until they are answered
      ...(setups[i].amount ? { amount: setups[i].amount } : { duration: warmup + seconds }),
      timeout: 30,
      headers: setups[i].headers,
      requests: counted,
    }, (error, result) => (error ? reject(error) : resolve(result))));
  })));
  const start = performance.now();
  // a scenario that counts its warm-up in requests sets rec.from itself, when the warm-up's last one is sent
  if (!setups[0].countedWarmup) rec.from = start + warmup * 1000;
  if (state) {
    state.instance = instances[0];
    state.start = start;
  }
  return done.then((results) => ({
    errors: results.reduce((n, r) => n + r.errors, 0),
    timeouts: results.reduce((n, r) => n + r.timeouts, 0),
    non2xx: results.reduce((n, r) => n + r.non2xx, 0),
    total: results.reduce((n, r) => n + r.requests.total, 0),
    average: results.reduce((n, r) => n + r.requests.average, 0),
    // autocannon's percentiles do not add up: of the first instance (the only one, but for plan.urls)
    latency: results[0].latency,
  }));
}

const scenario = scenarios[plan.scenario];
if (!scenario) throw new Error(`unknown scenario ${plan.scenario}`);
const setups = [];
for (const url of urls) setups.push(await scenario({ ...plan, url }));
const setup = setups[0];
if (urls.length > 1 && setup.state) throw new Error(`scenario ${plan.scenario} runs against one engine only`);
const result = await run(setups, plan.warmup ?? 0, plan.duration, setup.state);
const seconds = (performance.now() - rec.from) / 1000;

const all = [...rec.steps.values()].flatMap((s) => s.latencies);
const statuses = {};
for (const s of rec.steps.values()) for (const [code, n] of Object.entries(s.statuses)) statuses[code] = (statuses[code] ?? 0) + n;
const count = (test) => Object.entries(statuses).reduce((n, [code, k]) => n + (test(Number(code)) ? k : 0), 0);
const out = {
  scenario: plan.scenario,
  connections: plan.connections,
  seconds: round(seconds),
  requests: all.length,
  rps: round(all.length / seconds),
  latency: summary(all),
  statuses,
  non2xx: count((code) => code < 200 || code > 299),
  fivexx: count((code) => code >= 500),
  socketErrors: result.errors,
  timeouts: result.timeouts,
  ...(urls.length > 1 && { perUrl: urls.map((url, i) => ({ url, connections: share(i), requests: perUrl[i], rps: round(perUrl[i] / seconds) })) }),
  warmupMaxMs: round(rec.warmupMaxMs),
  steps: Object.fromEntries([...rec.steps].map(([name, s]) => [name, { ...summary(s.latencies), statuses: s.statuses }])),
  // autocannon's own figures cover warm-up and measurement together; its latencies are of 2xx answers only
  autocannon: { requests: result.total, rpsAverage: result.average, latency2xx: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99 }, non2xx: result.non2xx },
  ...(setup.state && { flash: { seats: setup.state.seats, sold: setup.state.sold, lostRaces: setup.state.lost, soldOutMs: setup.state.soldOutMs === undefined ? null : round(setup.state.soldOutMs) } }),
};
process.stdout.write(`${JSON.stringify(out)}\n`);
