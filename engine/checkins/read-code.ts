import { normalizeTicketCode } from '../domain/checkin';
import { EngineError } from '../domain/errors';
import { isSignedCode, parseSignedCode, type SignedTicket } from '../domain/signed-code';
import type { TicketSigning } from '../shared/context';

/**
 * What a gate scanned or typed, read (issue #26, contract §15): a signed code (`K1.…`) checked by its signature
 * alone, or a 20-character code normalized. Anything else — malformed, an unknown key, a wrong signature — is
 * 400 TICKET_INVALID. Runs before the check-in's transaction: verifying may read the store (a key learned since).
 */

/** A code read: its 20-character code, and for a signed code what its payload says. */
export type Scanned =
  | { readonly kind: 'code'; readonly code: string }
  | { readonly kind: 'signed'; readonly code: string; readonly ticket: SignedTicket };

const invalid = (): EngineError => new EngineError('TICKET_INVALID', { param: 'code' });

/** Reads a scanned or typed code; 400 TICKET_INVALID when it is neither a genuine signed code nor a 20-character one. */
export async function readTicketCode(ctx: TicketSigning, text: string): Promise<Scanned> {
  const trimmed = text.trim();
  if (isSignedCode(trimmed)) {
    // an engine put together without a key ring (some tests) knows no key: every signed code is not valid there
    const ticket = await ctx.ticketKeys?.verify(trimmed);
    const code = ticket && normalizeTicketCode(ticket.code);
    if (ticket === undefined || code === undefined) throw invalid();
    return { kind: 'signed', code, ticket };
  }
  const code = normalizeTicketCode(trimmed);
  if (code === undefined) throw invalid();
  return { kind: 'code', code };
}

/** The order id a signed code names, read without checking it (what a hub's answer leaves out); undefined otherwise. */
export function orderOfScanned(text: string): string | undefined {
  return parseSignedCode(text.trim())?.payload.orderId;
}
