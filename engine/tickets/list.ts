import { REVOCATION_PAGE_DEFAULT } from '../contract/ticket-keys';
import type { Storage, TicketSigning } from '../shared/context';
import type { RevocationRow } from '../store/revocation-repo';
import type { PublicTicketKey } from './ticket-key';

/** GET /ticket-keys (contract §15): every public key this engine has — its own, current and earlier, and those it learned. */
export async function listTicketKeys(ctx: Storage & TicketSigning): Promise<PublicTicketKey[]> {
  if (ctx.ticketKeys) return ctx.ticketKeys.list();
  return (await ctx.store.repos.ticketKeys.all()).map(({ keyId, publicKey, engine }) => ({ keyId, publicKey, engine }));
}

/** GET /ticket-revocations: revoked tickets after seq `after`, oldest first; `nextAfter` when more follow. */
export async function listRevocations(ctx: Storage, options: { after?: number; limit?: number }): Promise<{ data: RevocationRow[]; nextAfter?: number }> {
  const limit = options.limit ?? REVOCATION_PAGE_DEFAULT;
  const rows = await ctx.store.repos.revocations.page(options.after ?? 0, limit + 1);
  const data = rows.slice(0, limit);
  const last = data.at(-1);
  return rows.length > limit && last ? { data, nextAfter: last.seq } : { data };
}
