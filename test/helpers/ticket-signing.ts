import { createPublicKey, verify } from 'node:crypto';
import { expect } from 'vitest';
import type { TestEngine } from './engine';
import type { Order } from './orders';

/**
 * Signed ticket codes (issue #26, contract §15) checked as a gate of another make would: node:crypto alone, the
 * public keys of GET /ticket-keys, nothing of the engine's code.
 */

export interface TicketKey { keyId: string; publicKey: string; engine: string }
export type SignedOrder = Order & { tickets: (Order['tickets'][number] & { signedCode?: string })[] };
export interface Revocation { seq: number; code: string; occurrenceId: string; at: string }

/** GET /ticket-keys with `key` (default the engine's catalog:read key). */
export async function ticketKeys(engine: TestEngine, key = engine.keys.catalogRead): Promise<TicketKey[]> {
  const answer = await engine.request<{ data: TicketKey[] }>('GET', '/ticket-keys', { key });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data;
}

/** A signed code's payload when its signature verifies with one of `keys`; undefined otherwise. */
export function verifySigned(text: string, keys: readonly TicketKey[]): { payload: unknown; keyId: string } | undefined {
  const [format, payload, signature, keyId, ...rest] = text.split('.');
  if (format !== 'K1' || payload === undefined || signature === undefined || keyId === undefined || rest.length > 0) return undefined;
  const key = keys.find((candidate) => candidate.keyId === keyId);
  if (!key) return undefined;
  const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: key.publicKey }, format: 'jwk' });
  const bytes = Buffer.from(payload, 'base64url');
  if (!verify(null, bytes, publicKey, Buffer.from(signature, 'base64url'))) return undefined;
  return { payload: JSON.parse(bytes.toString('utf8')) as unknown, keyId };
}

/** GET /ticket-revocations?query */
export async function revocations(engine: TestEngine, query = '', key = engine.keys.catalogRead) {
  return engine.request<{ data: Revocation[]; nextAfter?: number }>('GET', `/ticket-revocations${query}`, { key });
}
