import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoCatalog } from '../../engine/catalog/demo';
import type { Order } from '../../engine/contract/order';
import { expectAccessible, screenshot, startUi, type UiHarness } from './browser';

/**
 * The kiosk in German sells with German line names — review, confirmation and the order the engine keeps
 * answering in German — and shows the catalog's pictures: the venue's banner, each event's picture on the
 * date step and the chosen show's picture in the banner. Without pictures, or with one that cannot load,
 * nothing is broken and nothing is missing but the picture. 1080×1920 portrait, axe on every screen.
 */

const KIOSK = 'mode=kiosk&idle=300';

async function visible(locator: Locator, timeout = 10_000): Promise<Locator> {
  await locator.waitFor({ state: 'visible', timeout });
  return locator;
}

/** The picture is on screen and really drawn: loaded, allowed by the page's Content-Security-Policy. */
async function expectDrawn(picture: Locator): Promise<void> {
  await visible(picture);
  await expect.poll(() => picture.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
}

async function orderShown(page: Page, ui: UiHarness, language: string): Promise<Order> {
  const heading = await visible(page.getByRole('heading', { name: /^Bestellung bestätigt/ }));
  const orderId = /ord_[A-Za-z0-9_-]+/.exec((await heading.textContent()) ?? '')?.[0] ?? '';
  const response = await ui.engine.request<{ data: Order }>('GET', `/orders/${orderId}`, { headers: { 'accept-language': language } });
  expect(response.status).toBe(200);
  return response.body.data;
}

describe('kiosk in German with the catalog pictures', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(() => ui.close());

  it('shows the venue banner, the event pictures and German line names from review to confirmation', { timeout: 60_000 }, async () => {
    const page = await ui.open('kiosk', KIOSK);
    await visible(page.getByRole('button', { name: 'Touch to start' }));
    await expectDrawn(page.locator('.kiosk-banner').getByRole('img', { name: 'Stadthalle am Fluss' }));
    // The start screen shows the pictures of the events on sale under the venue's name.
    const showcase = page.locator('.kiosk-banner').getByRole('list');
    await expectDrawn(showcase.getByRole('img', { name: 'Midnight Brass — Live in Concert' }));
    await expectDrawn(showcase.getByRole('img', { name: 'The Tempest' }));
    await expectAccessible(page, 'kiosk start screen with pictures');
    await page.getByRole('button', { name: 'Deutsch' }).click();
    await expectDrawn(showcase.getByRole('img', { name: 'Der Sturm' })); // named in the customer's language
    await page.getByRole('button', { name: 'Zum Starten berühren' }).click();

    // The date step: each event with its picture, named for screen readers; the gift card has none.
    const events = page.getByRole('navigation', { name: 'Veranstaltungen' });
    await expectDrawn(events.getByRole('img', { name: 'Midnight Brass — live im Konzert' }));
    await expectDrawn(events.getByRole('img', { name: 'Der Sturm' }));
    expect(await events.getByRole('img').count()).toBe(2);
    await screenshot(page, 'kiosk-date-pictures');
    await expectAccessible(page, 'kiosk date step with pictures (German)');

    await page.getByRole('button', { name: 'Freitag, 12. März 2027 um 20:30' }).click();
    // The chosen show's picture joins the banner.
    await expectDrawn(page.locator('.kiosk-banner').getByRole('img', { name: 'Midnight Brass — live im Konzert' }));
    const standing = await visible(page.getByRole('region', { name: 'Stehplatz' }));
    await standing.getByRole('button', { name: 'Eins mehr: Erwachsene' }).click();
    await standing.getByRole('button', { name: 'Eins mehr: Erwachsene' }).click();
    await page.getByRole('button', { name: 'Weiter', exact: true }).click();
    await visible(page.getByRole('heading', { name: 'Prüfen und bezahlen' }));
    await page.getByRole('button', { name: 'Parken hinzufügen' }).click();
    const review = page.locator('.kiosk-pay table.receipt');
    await expect.poll(() => review.innerText()).toMatch(/2 × Stehplatz — Erwachsene[\s\S]*1 × Parken/);
    expect(await review.innerText()).not.toMatch(/Standing|Adult|Parking/);
    await screenshot(page, 'kiosk-review-de');
    await expectAccessible(page, 'kiosk review step (German)');

    await page.getByRole('button', { name: 'Mit Karte zahlen' }).click();
    const order = await orderShown(page, ui, 'de');
    const confirmation = page.locator('.confirmation');
    const receipt = await confirmation.locator('table.receipt').innerText();
    expect(receipt).toMatch(/2 × Stehplatz — Erwachsene[\s\S]*1 × Parken/);
    expect(receipt).not.toMatch(/Standing|Adult|Parking/);
    const ticket = await confirmation.locator('.ticket').first().innerText();
    for (const part of ['Midnight Brass — live im Konzert', 'Stehplatz']) expect(ticket).toContain(part);
    await screenshot(page, 'kiosk-confirmation-de');
    await expectAccessible(page, 'kiosk confirmation (German)');
    // The engine answers the same order in German to a German reader, in English to an English one.
    expect(order.items.map((item) => item.name)).toEqual(['Stehplatz — Erwachsene', 'Parken']);
    const english = await ui.engine.request<{ data: Order }>('GET', `/orders/${order.id}`, { headers: { 'accept-language': 'en' } });
    expect(english.body.data.items.map((item) => item.name)).toEqual(['Standing — Adult', 'Parking']);
  });

  it('without pictures, or with one that cannot load, shows the typeset banner and the dates; nothing broken', { timeout: 60_000 }, async () => {
    const doc = demoCatalog();
    const [venue] = doc.locations;
    const [brass, tempest] = doc.events;
    if (!venue || !brass || !tempest) throw new Error('demo catalog changed');
    delete venue.banner;
    delete brass.image;
    tempest.image = 'https://127.0.0.1:9/unreachable.png'; // an https: picture while the venue is offline
    expect((await ui.engine.request('PUT', '/catalog', { body: doc })).status).toBe(200);

    const page = await ui.open('kiosk', KIOSK);
    const failures: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) failures.push(message.text());
    });
    await visible(page.getByRole('button', { name: 'Touch to start' }));
    const banner = page.locator('.kiosk-banner');
    // the attract screen's button comes before the catalog has been read; the venue's name comes with it
    await expect.poll(() => banner.innerText()).toContain('Stadthalle am Fluss');
    // the catalog as it is now, once the kiosk has read it (a page may first show what it read before)
    await expect.poll(() => banner.locator('img').count()).toBe(0);
    await expectAccessible(page, 'kiosk attract screen without a banner');

    await page.getByRole('button', { name: 'Touch to start' }).click();
    await visible(page.getByRole('button', { name: 'Friday, 2 April 2027 at 20:00' }));
    // The unreachable picture is dropped once it fails, never left as a broken-image sign.
    await expect.poll(() => page.locator('.events img').count()).toBe(0);
    await visible(page.getByRole('heading', { name: 'The Tempest' }));
    await expectAccessible(page, 'kiosk date step without pictures');
    await page.getByRole('button', { name: 'Friday, 12 March 2027 at 20:30' }).click();
    await visible(page.getByRole('region', { name: 'Standing' }));
    await expect.poll(() => banner.innerText()).toContain('Midnight Brass — Live in Concert');
    expect(await banner.locator('img').count()).toBe(0);
    expect(failures).toEqual([]);
    expect((await ui.engine.request('PUT', '/catalog', { body: demoCatalog() })).status).toBe(200);
  });
});
