/**
 * What of a request the log may keep. Ticket codes (`?ticketCode=`), 3-D Secure challenge references (the
 * only credential of a challenge page, in its path) and any other secret-looking query value are replaced,
 * so a log shipped to support never lets anyone redeem a ticket or answer a challenge.
 */

const SECRET_QUERY = /^(?:ticketcode|code|reference|token|authenticationresult|key|apikey|api_key)$/i;
const SECRET_PATHS: readonly RegExp[] = [/^(\/psp\/challenges\/)[^/?#]+/];
export const REDACTED = '[redacted]';

export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  let path = q === -1 ? url : url.slice(0, q);
  for (const pattern of SECRET_PATHS) path = path.replace(pattern, `$1${REDACTED}`);
  if (q === -1) return path;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        decoded = name; // an undecodable name is logged as sent; its value is still checked below by the raw name
      }
      return eq !== -1 && SECRET_QUERY.test(decoded) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${path}?${query}`;
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
