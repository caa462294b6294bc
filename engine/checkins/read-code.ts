import { normalizeTicketCode } from '../domain/checkin';
import { EngineError } from '../domain/errors';

/**
 * What a gate scanned or typed, read (issue #26, contract §15): a signed code (`K1.…`) checked by its signature
 * alone, or a 20-character code normalized. Anything else — malformed, an unknown key, a wrong signature — is
 * 400 TICKET_INVALID. Runs before the check-in's transaction: verifying may read the store (a key learned since).
 */

/** a signed code's payload (engine/domain/signed-code.ts SignedTicket) */
export interface SignedTicketFacts {
  readonly code: string;
  readonly occurrenceId: string;
  readonly areaId: string;
  readonly seat: string | null;
  readonly orderId: string;
}

/**
 * What checks a signed code (the engine's ticket key ring, engine/tickets/key-ring.ts: `ctx.ticketKeys`): its
 * payload when the code is well-formed and signed by a key the engine knows, undefined otherwise.
 */
export interface TicketVerifier {
  verify(text: string): Promise<SignedTicketFacts | undefined>;
}

/** The key ring, where the engine has one (an engine without it reads every signed code as not valid). */
export type TicketVerification = { readonly ticketKeys?: TicketVerifier | undefined };

/** A code read: its 20-character code, and for a signed code what its payload says. */
export type Scanned =
  | { readonly kind: 'code'; readonly code: string }
  | { readonly kind: 'signed'; readonly code: string; readonly ticket: SignedTicketFacts };

/** the signed codes' format (engine/domain/signed-code.ts isSignedCode) */
const SIGNED = 'K1.';

const invalid = (): EngineError => new EngineError('TICKET_INVALID', { param: 'code' });

/** Reads a scanned or typed code; 400 TICKET_INVALID when it is neither a genuine signed code nor a 20-character one. */
export async function readTicketCode(ctx: TicketVerification, text: string): Promise<Scanned> {
  const trimmed = text.trim();
  if (trimmed.startsWith(SIGNED)) {
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
  const [format, payload] = text.trim().split('.');
  if (`${format ?? ''}.` !== SIGNED || payload === undefined) return undefined;
  try {
    const fields: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return Array.isArray(fields) && typeof fields[4] === 'string' ? fields[4] : undefined;
  } catch {
    return undefined;
  }
}
