import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concert, createCart } from '../helpers/cart-assertions';
import { startTestEngine, type TestEngine } from '../helpers/engine';
import { placeOrder } from '../helpers/orders';
import { print, printers, waitForJob } from '../helpers/printing';

/**
 * `system:NAME` printers: the engine hands a page to the host's silent print (Electron's, in the desktop
 * app; here a recording stand-in, since no Electron runtime runs on this machine) and reports its failure
 * with the host's reason.
 */

interface Printed {
  printer: string;
  paper: string;
  html: string;
}

describe('printing on an operating-system printer', () => {
  const printed: Printed[] = [];
  let refuse: string | undefined;
  let engine: TestEngine;
  beforeAll(async () => {
    engine = await startTestEngine({
      printers: ['system:Front Desk?paper=80', 'system:Office%20Laser?paper=a4'],
      printTimeZone: 'Europe/Berlin',
      systemPrint: async (request) => {
        if (refuse !== undefined) throw new Error(refuse);
        printed.push({ ...request });
      },
    });
  });
  afterAll(() => engine.close());

  it('prints a page per ticket and the receipt, sized for the paper, on the named printer', async () => {
    const cart = await createCart(engine, [concert(2)]);
    const order = await placeOrder(engine, cart.id, cart.total);
    const { job } = await print(engine, order.id, { printer: 'system:Office%20Laser?paper=a4' });
    await waitForJob(engine, job.id, (current) => current.state === 'done');
    expect(printed).toHaveLength(1);
    const [page] = printed;
    expect(page).toMatchObject({ printer: 'Office Laser', paper: 'a4' });
    expect(page?.html).toContain('size: A4');
    expect(page?.html.match(/<section>/g)).toHaveLength(3);
    expect(page?.html.match(/<svg/g)).toHaveLength(2);
    for (const ticket of order.tickets) expect(page?.html).toContain(ticket.code);
    expect(page?.html).toContain('Friday, 12 March 2027 at 20:30');
    expect(page?.html).toMatch(/Total<\/td><td class="amount">€78\.00/);
  });

  it('fails the job with the reason the system printer gave, and does not resend it', async () => {
    refuse = 'the system printer did not take the job: Print job canceled';
    const cart = await createCart(engine, [concert(1)]);
    const order = await placeOrder(engine, cart.id, cart.total);
    const before = printed.length;
    const { job } = await print(engine, order.id);
    expect(job.printer).toBe('system:Front Desk?paper=80');
    const failed = await waitForJob(engine, job.id, (current) => current.state === 'failed');
    expect(failed.reason).toMatch(/Print job canceled/);
    expect(printed).toHaveLength(before);
    expect((await printers(engine))[0]).toMatchObject({ kind: 'system', state: 'down' });
    refuse = undefined;
  });
});

describe('an engine without the desktop app', () => {
  it('refuses a system printer at start: there is nothing to print it with', async () => {
    await expect(startTestEngine({ printers: ['system:Front Desk'] })).rejects.toThrow(/desktop app/);
  });
});
