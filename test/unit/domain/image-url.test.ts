import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BRASS_PICTURE, TEMPEST_PICTURE, VENUE_BANNER } from '../../../engine/catalog/demo-images';
import { isSafeImageUrl, MAX_IMAGE_URL_LENGTH } from '../../../engine/domain/image-url';

/** Which picture URLs a catalog may carry (issue #14): https: and data:image/ only, each of them one the UI's img-src allows. */

describe('catalog picture URLs', () => {
  it.each([
    'https://images.venue.example/banner.webp',
    'https://images.venue.example:8443/a/b.png?size=large#top',
    'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ',
    'data:image/jpeg;base64,/9j/4AAQSkZJRg==',
    'data:image/webp;base64,UklGRg==',
    'DATA:IMAGE/GIF;BASE64,R0lGODlh',
    'data:image/svg+xml;charset=utf-8,%3Csvg%20xmlns%3D%22http%3A%2F%2Fwww.w3.org%2F2000%2Fsvg%22%2F%3E',
    VENUE_BANNER,
    BRASS_PICTURE,
    TEMPEST_PICTURE,
  ])('accepts %s', (url) => {
    expect(isSafeImageUrl(url)).toBe(true);
  });

  it.each([
    'http://images.venue.example/a.png',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    '/images/a.png',
    'images/a.png',
    '//images.venue.example/a.png',
    'ftp://images.venue.example/a.png',
    'blob:https://images.venue.example/1234',
    'file:///etc/passwd',
    'data:text/html,<script>alert(1)</script>',
    'data:image/svg+xml,<svg onload="alert(1)">',
    'data:image/png;base64,not base64!',
    'data:image/bmp;base64,Qk0=',
    'data:,hello',
    'https://user:secret@images.venue.example/a.png',
    'https://images.venue.example/a b.png',
    '',
  ])('refuses %j', (url) => {
    expect(isSafeImageUrl(url)).toBe(false);
  });

  it(`refuses anything longer than ${MAX_IMAGE_URL_LENGTH} characters`, () => {
    const prefix = 'data:image/png;base64,';
    expect(isSafeImageUrl(prefix + 'A'.repeat(MAX_IMAGE_URL_LENGTH - prefix.length))).toBe(true);
    expect(isSafeImageUrl(prefix + 'A'.repeat(MAX_IMAGE_URL_LENGTH - prefix.length + 1))).toBe(false);
  });

  it('accepts nothing whose scheme is not https: or data:', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1]?.toLowerCase();
        if (isSafeImageUrl(text)) expect(['https', 'data']).toContain(scheme);
      }),
    );
  });
});
