/**
 * The pictures a catalog may name (an event's `image`, a venue's `banner`; issue #14): an `https:` URL, or a
 * `data:image/` URL of PNG, JPEG, GIF, WebP, AVIF or SVG. Nothing else — no `http:` (mixed content), no
 * `javascript:`, no relative path — so the UI's Content-Security-Policy (`img-src 'self' data: https:`)
 * allows every picture the engine accepts. An image element never runs an SVG's scripts.
 */

export const MAX_IMAGE_URL_LENGTH = 200_000;

const DATA_IMAGE = /^data:image\/(?:png|jpeg|gif|webp|avif|svg\+xml)(?:;[a-z-]+=[\w.+-]+)*(?:;base64,[A-Za-z0-9+/]*={0,2}|,[^\s"'<>\\]*)$/i;

export function isSafeImageUrl(value: string): boolean {
  if (value.length > MAX_IMAGE_URL_LENGTH) return false;
  if (value.slice(0, 5).toLowerCase() === 'data:') return DATA_IMAGE.test(value);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false; // a relative path or not a URL at all
  }
  return url.protocol === 'https:' && url.hostname !== '' && url.username === '' && url.password === '' && !/\s/.test(value);
}
