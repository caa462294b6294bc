import { createHash } from 'node:crypto';
import type { Sha256Hex } from '../domain/journal';

/** SHA-256 by node:crypto: what the engine hashes and verifies the journal with (the same as domain/sha256.ts, faster). */
export const sha256: Sha256Hex = (text) => createHash('sha256').update(text, 'utf8').digest('hex');
