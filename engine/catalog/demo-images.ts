/**
 * Pictures for the demo catalog (issue #14), drawn as small SVGs and carried as data: URLs so the demo needs
 * no network and no files: the venue's banner (a hall by the river) and two event pictures. No text in them —
 * the kiosk sets names beside them, in the customer's language.
 */

const svg = (body: string, width: number, height: number) =>
  `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" preserveAspectRatio="xMidYMid slice">${body}</svg>`)}`;

export const VENUE_BANNER = svg(
  '<defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#0b2545"/><stop offset="1" stop-color="#13315c"/></linearGradient></defs>'
    + '<rect width="1080" height="240" fill="url(#s)"/>'
    + '<circle cx="900" cy="70" r="34" fill="#f4d35e"/>'
    + '<path d="M300 170V96l120-46 120 46v74z" fill="#8da9c4"/><path d="M380 170v-44h80v44z" fill="#134074"/>'
    + '<path d="M200 170v-40h100v40zM540 170v-40h100v40z" fill="#6b8cae"/>'
    + '<path d="M0 175q135-18 270 0t270 0 270 0 270 0v65H0z" fill="#1d4e89"/>'
    + '<path d="M0 205q135-14 270 0t270 0 270 0 270 0v35H0z" fill="#2a6f97"/>',
  1080,
  240,
);

export const BRASS_PICTURE = svg(
  '<defs><radialGradient id="g" cx=".5" cy=".35" r=".8"><stop offset="0" stop-color="#ffb703"/><stop offset="1" stop-color="#9d4304"/></radialGradient></defs>'
    + '<rect width="400" height="240" fill="url(#g)"/>'
    + '<path d="M60 150h190l70-40v100l-70-40H60z" fill="#fde68a" stroke="#7c2d12" stroke-width="6" stroke-linejoin="round"/>'
    + '<circle cx="120" cy="130" r="9" fill="#7c2d12"/><circle cx="150" cy="130" r="9" fill="#7c2d12"/><circle cx="180" cy="130" r="9" fill="#7c2d12"/>',
  400,
  240,
);

export const TEMPEST_PICTURE = svg(
  '<defs><linearGradient id="t" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#1b263b"/><stop offset="1" stop-color="#415a77"/></linearGradient></defs>'
    + '<rect width="400" height="240" fill="url(#t)"/>'
    + '<path d="M230 20l-50 90h40l-40 80 90-110h-45l35-60z" fill="#ffd60a"/>'
    + '<path d="M0 190q50-25 100 0t100 0 100 0 100 0v50H0z" fill="#0d1b2a"/>'
    + '<path d="M150 190l30-45 30 45z" fill="#e0e1dd"/>',
  400,
  240,
);
