import { EngineError } from '../domain/errors';
import type { HubTicketKey } from '../contract/hub-checkins';
import type { TicketSigning } from '../shared/context';
import { TicketKeyRefused } from '../tickets/key-ring';

/**
 * POST /hub/ticket-keys (issue #26): a terminal's public keys, learned here as any key is (each key id checked against
 * its key). A key whose id is not its own, or that is not an Ed25519 key, is 400 INVALID_FIELD_VALUE `keys[i]`; a key
 * id known here with another key is 409 TICKET_KEY_CONFLICT. Idempotent: the terminal sends them at every pull until
 * they are taken. Answers how many were new.
 */
export async function learnTerminalKeys(ctx: TicketSigning, keys: readonly HubTicketKey[]): Promise<{ learned: number }> {
  if (ctx.ticketKeys === undefined) throw new Error('this engine has no ticket key ring');
  try {
    return { learned: await ctx.ticketKeys.learn(keys) };
  } catch (error) {
    if (!(error instanceof TicketKeyRefused)) throw error;
    const refused = error;
    const index = keys.findIndex((key) => key.keyId === refused.keyId);
    const param = `keys[${Math.max(0, index)}]`;
    if (refused.reason === 'known_with_another_key') throw new EngineError('TICKET_KEY_CONFLICT', { param, details: { keyId: refused.keyId } });
    throw new EngineError('INVALID_FIELD_VALUE', { param, details: { reason: refused.reason } });
  }
}
