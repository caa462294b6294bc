import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import { KEY_ID_LENGTH } from '../domain/signed-code';
import type { TicketKeyRow } from '../store/ticket-key-repo';

/**
 * Ed25519 ticket keys (issue #26) in their stored forms: the public key as base64url of its raw 32 bytes, the
 * private key as PKCS#8 DER in base64url, the key id derived from the public key (so anyone holding a key can check
 * the id it is given under).
 */

/** a public ticket key as the API lists it (contract §15) */
export interface PublicTicketKey {
  readonly keyId: string;
  readonly publicKey: string;
  readonly engine: string;
}

/** The key id of a raw public key (base64url): the first 12 characters of base64url(SHA-256(raw bytes)). */
export function keyIdOf(publicKey: string): string {
  return createHash('sha256').update(Buffer.from(publicKey, 'base64url')).digest('base64url').slice(0, KEY_ID_LENGTH);
}

/** The public KeyObject of a raw Ed25519 key (base64url); undefined when it is not one. */
export function publicKeyObject(publicKey: string): KeyObject | undefined {
  if (!/^[A-Za-z0-9_-]{43}$/.test(publicKey) || Buffer.from(publicKey, 'base64url').length !== 32) return undefined;
  try {
    return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: publicKey }, format: 'jwk' });
  } catch {
    return undefined;
  }
}

/** The private KeyObject of a stored own key. */
export function privateKeyObject(privateKey: string): KeyObject {
  return createPrivateKey({ key: Buffer.from(privateKey, 'base64url'), format: 'der', type: 'pkcs8' });
}

/** A new own key pair, for `engine` (a new engine id, `eng_` + a UUID, when none is given: the first key). */
export function newTicketKey(createdAt: string, engine = `eng_${randomUUID()}`): Omit<TicketKeyRow, 'signing'> {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const { x } = publicKey.export({ format: 'jwk' });
  if (typeof x !== 'string') throw new Error('an Ed25519 public key without its raw bytes');
  return { keyId: keyIdOf(x), publicKey: x, privateKey: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64url'), engine, createdAt };
}
