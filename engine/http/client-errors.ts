import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { EngineError } from '../domain/errors';
import { messageFor } from './i18n';

/**
 * Requests Node's HTTP parser refuses before Fastify sees them — headers too large, a Content-Length that
 * does not fit the body or clashes with Transfer-Encoding, bytes that are no HTTP — are answered in the
 * envelope of spec §7.1 too (in English: the headers could not be read), then the connection is closed.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const known = engineErrorOf(error.code);
  const body = JSON.stringify({
    error: { type: known.type, code: known.code, message: messageFor(known.code, 'en', {}), ...(known.details !== undefined && { details: known.details }) },
  });
  socket.end(
    `HTTP/1.1 ${known.status} ${STATUS_CODES[known.status] ?? 'Error'}\r\n`
      + 'Content-Type: application/json; charset=utf-8\r\n'
      + `Content-Length: ${Buffer.byteLength(body)}\r\n`
      + 'X-Content-Type-Options: nosniff\r\n'
      + 'Connection: close\r\n\r\n'
      + body,
  );
}

function engineErrorOf(code: string | undefined): EngineError {
  if (code === 'HPE_HEADER_OVERFLOW') return new EngineError('HEADERS_TOO_LARGE');
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return new EngineError('REQUEST_TIMEOUT');
  return new EngineError('MALFORMED_REQUEST', { details: { reason: code ?? 'unreadable_request' } });
}
