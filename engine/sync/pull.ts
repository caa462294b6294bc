import { createHash } from 'node:crypto';
import type { Log } from '../log';
import Value from 'typebox/value';
import { CatalogDocument } from '../contract/catalog';
import { importCatalogInSlices } from '../catalog/import-catalog';
import type { Storage } from '../shared/context';
import type { Channel } from './channel';
import { isTransient } from './retry';
import { dataOf, errorOf } from './upstream';
import { offerOwnKeys, pullRevocations, pullTicketKeys, type TicketKeyPort } from './ticket-key-exchange';

/**
 * What the upstream is (GET /capabilities, public: a Kassa hub lists `orders.import-batch`; a plain v3
 * service has no such route) and its catalog (GET /catalog), imported with the re-import rules when it
 * changed. Asked at start and at every pull, so a hub upgraded or replaced is noticed.
 *
 * With ticket keys (issue #26): to a hub offering `checkins`, this terminal's public keys go first — before the
 * catalog, before any place is asked for — and after the catalog every other key the hub knows and the revocations
 * since the cursor are pulled (a plain v3 upstream has neither: nothing is asked).
 */
export type PullResult = {
  readonly kind?: 'hub' | 'v3';
  readonly batchLimit?: number;
  /** the hub takes terminals' journals (`journal.import`, contract §14) */
  readonly journal?: boolean;
  /** the hub decides and takes check-ins (`checkins`, issue #26) */
  readonly checkins?: boolean;
  /** the hub took this terminal's ticket keys (issue #26; true: nothing to give, a hub without check-ins) */
  readonly keysGiven?: boolean;
} & ({ readonly ok: true } | { readonly ok: false; readonly reason: string; readonly offline: boolean; readonly keyRejected: boolean });

export async function pullCatalog(ctx: Storage, upstream: Channel, logger: Log, keys?: TicketKeyPort): Promise<PullResult> {
  const offered = await upstream.get('/capabilities');
  if (isTransient(offered.status) || offered.status === 429) {
    return { ok: false, reason: `capabilities: upstream answered ${offered.status || 'nothing'}`, offline: true, keyRejected: false };
  }
  const capabilities = offered.status === 200 ? dataOf<{ extensions?: unknown; limits?: { importBatch?: unknown } }>(offered) : undefined;
  const extensions = Array.isArray(capabilities?.extensions) ? capabilities.extensions : [];
  const kind = extensions.includes('orders.import-batch') ? 'hub' : 'v3';
  const limit = capabilities?.limits?.importBatch;
  const found = { kind, journal: kind === 'hub' && extensions.includes('journal.import'), checkins: kind === 'hub' && extensions.includes('checkins'), ...(typeof limit === 'number' && Number.isInteger(limit) && limit > 0 && { batchLimit: limit }) } as const;

  let keysGiven = !found.checkins;
  if (found.checkins && keys !== undefined) {
    const offer = await offerOwnKeys(ctx, upstream, keys, logger);
    if (!offer.ok && (offer.offline || offer.keyRejected)) return { ...found, ...offer };
    keysGiven = offer.ok;
  }

  const answer = await upstream.get('/catalog');
  const doc = answer.status === 200 ? dataOf<unknown>(answer) : undefined;
  if (doc === undefined || !Value.Check(CatalogDocument, doc)) {
    const code = errorOf(answer)?.code;
    const keyRejected = answer.status === 401 || code === 'INSUFFICIENT_PERMISSIONS';
    const reason = keyRejected ? `the upstream refused the sync key (${code ?? answer.status})` : `catalog pull: upstream answered ${answer.status || 'nothing'}`;
    return { ...found, ok: false, reason, offline: isTransient(answer.status), keyRejected };
  }
  const hash = createHash('sha256').update(JSON.stringify(doc)).digest('hex');
  if (hash !== (await ctx.store.repos.outbox.state('catalog_hash'))) {
    await importCatalogInSlices(ctx, doc);
    await ctx.store.repos.outbox.setState('catalog_hash', hash);
    logger.info('catalog pulled from upstream');
  }
  if (kind === 'hub' && keys !== undefined) {
    // with the catalog: the keys of every other engine, the tickets cancelled since the last pull
    const learnt = (await pullTicketKeys(upstream, keys)) && (await pullRevocations(ctx, upstream, keys));
    if (!learnt) logger.warn('ticket keys or revocations not pulled from the hub: asked again at the next pull');
  }
  return { ...found, keysGiven, ok: true };
}
