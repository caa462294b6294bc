import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogDocument, EventView, LocationView } from '../../engine/contract/catalog';
import { smallCatalog } from '../fixtures/small-catalog';
import { errorOf } from '../helpers/cart-assertions';
import { startTestEngine, type TestEngine } from '../helpers/engine';

/**
 * Pictures in the catalog (issue #14): an event's `image` and a venue's `banner` are https: or data:image/
 * URLs; they are stored, listed by GET /events and /locations, exported by GET /catalog; anything else is a
 * 400 INVALID_FIELD_VALUE naming the field, and the catalog stays as it was.
 */

const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const BANNER = 'https://images.venue.example/banner.webp';

function withPictures(image?: string, banner?: string): CatalogDocument {
  const doc = smallCatalog();
  const [location] = doc.locations;
  const [event] = doc.events;
  if (!location || !event) throw new Error('fixture without a location or an event');
  if (banner !== undefined) location.banner = banner;
  if (image !== undefined) event.image = image;
  return doc;
}

describe('catalog pictures', () => {
  let engine: TestEngine;
  beforeAll(async () => {
    // a page of its own to serve, so the served policy is read whether or not the UI was built
    const uiDir = mkdtempSync(join(tmpdir(), 'kassa-ui-'));
    writeFileSync(join(uiDir, 'index.html'), '<!doctype html><title>Kassa</title>');
    engine = await startTestEngine({ demo: false, uiDir });
  });
  afterAll(() => engine.close());

  const put = (doc: unknown) => engine.request('PUT', '/catalog', { body: doc });
  const events = async () => (await engine.request<{ data: EventView[] }>('GET', '/events')).body.data;
  const locations = async () => (await engine.request<{ data: LocationView[] }>('GET', '/locations')).body.data;

  it('without pictures the views carry no picture fields', async () => {
    expect((await put(withPictures())).status).toBe(200);
    expect((await events())[0]).not.toHaveProperty('image');
    expect((await locations())[0]).not.toHaveProperty('banner');
  });

  it('stores a data:image/ picture and an https: banner, lists them and exports them', async () => {
    expect((await put(withPictures(PNG, BANNER))).status).toBe(200);
    expect((await events())[0]).toMatchObject({ id: 'small-gig', image: PNG });
    expect((await locations())[0]).toMatchObject({ id: 'hall', banner: BANNER });
    const exported = (await engine.request<{ data: CatalogDocument }>('GET', '/catalog')).body.data;
    expect(exported.events[0]?.image).toBe(PNG);
    expect(exported.locations[0]?.banner).toBe(BANNER);
    // a new import without them takes them away
    expect((await put(withPictures())).status).toBe(200);
    expect((await events())[0]).not.toHaveProperty('image');
    expect((await locations())[0]).not.toHaveProperty('banner');
  });

  it.each([
    ['http: (mixed content)', 'http://images.venue.example/a.png'],
    ['javascript:', 'javascript:alert(1)'],
    ['a relative path', '/images/a.png'],
    ['data: that is not an image', 'data:text/html,<script>alert(1)</script>'],
    ['an https: URL with credentials', 'https://user:secret@images.venue.example/a.png'],
  ])('refuses %s as an event picture or a banner, naming the field and losing nothing', async (_, url) => {
    expect((await put(withPictures(PNG, BANNER))).status).toBe(200);
    const before = await engine.request('GET', '/catalog');
    const image = errorOf(await put(withPictures(url, BANNER)), 400, 'INVALID_FIELD_VALUE', 'events[0].image');
    expect(image.details).toMatchObject({ reason: 'unsafe_image_url' });
    const banner = errorOf(await put(withPictures(PNG, url)), 400, 'INVALID_FIELD_VALUE', 'locations[0].banner');
    expect(banner.details).toMatchObject({ reason: 'unsafe_image_url' });
    expect((await engine.request('GET', '/catalog')).body).toEqual(before.body);
  });

  it('refuses an empty picture by the schema, in the envelope', async () => {
    const response = await put(withPictures(''));
    expect(response.status).toBe(400);
    expect((response.body as { error: { param?: string } }).error.param).toBe('events[0].image');
  });

  it("the UI's Content-Security-Policy lets the accepted pictures load: img-src has data: and https:", async () => {
    const response = await fetch(`${engine.url}/`);
    expect(response.status).toBe(200);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toMatch(/img-src 'self' data: https:(;|$)/);
    expect(policy).toContain("default-src 'self'");
  });
});
