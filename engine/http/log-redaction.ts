/**
 * What of a request the log may keep. Ticket codes (`?ticketCode=`), 3-D Secure challenge references (the
 * only credential of a challenge page, in its path), gift-card codes (`/gift-cards/<code>`) and any other
 * secret-looking query value are replaced, so a log shipped to support never lets anyone redeem a ticket,
 * spend a gift card or answer a challenge.
 *
 * Robust to malformed names (issue #22): a query name is secret when, decoded (repeatedly, `+` as a space,
 * NFKC), lower-cased and stripped of everything but letters and digits, it CONTAINS a secret word — so
 * `ticketCode[]`, `ticketCode[x]`, `ticketCode%5B%5D`, `ticket%43ode`, `TICKET_CODE` and `ticketCode%3DABC`
 * (a value hidden in the name) are all redacted. Over-redaction costs nothing: it is only the log.
 */

/** names logged as sent, with only their value redacted (the engine's own spellings) */
const KNOWN_SECRET_NAME = /^(?:ticketcode|code|reference|token|authenticationresult|key|apikey|api_key)$/i;
/** a name containing one of these (after normalizing) is secret */
const SECRET_WORDS = ['code', 'reference', 'token', 'authentication', 'key', 'secret', 'password', 'pin', 'checksum', 'signature', 'session'];
/** a path segment naming the challenge whose next segment is its reference */
const CHALLENGE_SEGMENT = /^challenges?$/i;
export const REDACTED = '[redacted]';

/** decodes percent-escapes until nothing changes (double encoding included); a broken escape stays as sent */
function decodeFully(text: string): string {
  let current = text.replace(/\+/g, ' ');
  for (let round = 0; round < 4; round += 1) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return current; // not decodable any further: matched as it is
    }
    if (next === current) return current;
    current = next;
  }
  return current;
}

const normalized = (text: string): string => decodeFully(text).normalize('NFKC').toLowerCase().replace(/[^a-z0-9]/g, '');

function isSecretName(name: string): boolean {
  const plain = normalized(name);
  return SECRET_WORDS.some((word) => plain.includes(word));
}

/** what of a secret name the log keeps: a known spelling whole; else its start up to the first secret word, then [redacted] */
function shownName(name: string): string {
  if (KNOWN_SECRET_NAME.test(name)) return name;
  const lower = name.toLowerCase();
  const ends = SECRET_WORDS.map((word) => lower.indexOf(word)).map((at, i) => (at === -1 ? Infinity : at + (SECRET_WORDS[i]?.length ?? 0)));
  const end = Math.min(...ends);
  return `${Number.isFinite(end) ? name.slice(0, end) : ''}${REDACTED}`;
}

function redactPair(pair: string): string {
  const eq = pair.indexOf('=');
  const name = eq === -1 ? pair : pair.slice(0, eq);
  if (!isSecretName(name)) return pair;
  const shown = shownName(name);
  return eq === -1 ? shown : `${shown}=${REDACTED}`;
}

/**
 * Path segments whose next segment is a secret: `/psp/challenges/<reference>` (a challenge's only credential) and
 * `/gift-cards/<code>` (a gift card's code is its money, issue #24) — however spelt (`%63hallenges`, `GIFT-CARDS`,
 * `//`, `challenges%2F<reference>`, `gift-cards%2F<code>`). `word` is the name normalized; `exact` the segment itself.
 */
const SECRET_BEFORE = [
  { word: 'challenge', exact: CHALLENGE_SEGMENT },
  { word: 'giftcards', exact: /^gift-cards$/i },
] as const;

/** what follows a segment that names a secret goes (see SECRET_BEFORE) */
function redactPath(path: string): string {
  return SECRET_BEFORE.reduce((redacted, secret) => redactAfter(redacted, secret.word, secret.exact), path);
}

function redactAfter(path: string, word: string, exact: RegExp): string {
  if (!normalized(path).includes(word)) return path;
  const segments = path.split('/');
  const at = segments.findIndex((segment) => normalized(segment).includes(word));
  if (at === -1) return [...segments.slice(0, 1), REDACTED].join('/'); // the word spans segments: over-redact
  const segment = segments[at] ?? '';
  if (!exact.test(decodeFully(segment))) return [...segments.slice(0, at), REDACTED].join('/');
  const rest = segments.slice(at + 1);
  const firstFilled = rest.findIndex((part) => part !== '');
  if (firstFilled === -1) return path;
  return [...segments.slice(0, at + 1), ...rest.slice(0, firstFilled), REDACTED].join('/');
}

export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = redactPath(q === -1 ? url : url.slice(0, q));
  if (q === -1) return path;
  return `${path}?${url.slice(q + 1).split('&').map(redactPair).join('&')}`;
}

interface LoggedRequest {
  readonly method: string;
  readonly url: string;
  readonly host?: string;
  readonly ip?: string;
  readonly socket?: { readonly remotePort?: number } | null;
}

/** pino serializer of `req` in the request log lines. */
export function requestSerializer(request: LoggedRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
