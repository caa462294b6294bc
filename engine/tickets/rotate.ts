import type { Storage } from '../shared/context';
import { newTicketKey } from './ticket-key';

/**
 * Rotates this engine's ticket key (issue #26): a new signing key pair for the same engine id; the earlier keys stay
 * (signing = 0) so the tickets they signed still verify. Running engine processes sign with the new key from their
 * next start. Answers the new key id.
 */
export async function rotateTicketKey(ctx: Storage, now: number): Promise<string> {
  return ctx.store.transaction(async (tx) => {
    await tx.locks.named('ticket-keys');
    const current = await tx.ticketKeys.signing();
    const key = newTicketKey(new Date(now).toISOString(), current?.engine);
    await tx.ticketKeys.rotate(key);
    return key.keyId;
  });
}
