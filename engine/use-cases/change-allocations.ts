import { createHash } from 'node:crypto';
import { capFor, DEFAULT_ALLOCATION_CAP, planChange, placesLeft, type AllocationCap } from '../domain/allocations';
import { EngineError } from '../domain/errors';
import type { Allocations, AllocationView, ChangeAllocationsBody } from '../contract/allocation';
import { immediate } from '../store/db';
import type { EngineContext } from './context';

/**
 * POST /allocations (contract §10): grants, tops up and gives back places of inventory items to the calling
 * terminal (its API key), all changes of one request in one transaction. The Idempotency-Key makes a retried
 * request land once: the same key and body answer the first answer again. Every call renews the terminal's
 * allocations until now + the hub's lapse time. No terminal keeps more of one item in hand than `cap` allows
 * (`--allocation-cap`): past it a grant gives up to the cap, or nothing and 409 below its `minimum`; only a
 * change's `forSale` part, the shortfall of a sale in progress, is granted beyond it (domain/allocations.ts).
 */

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export function changeAllocations(
  ctx: EngineContext,
  terminalId: string,
  idempotencyKey: string | undefined,
  body: ChangeAllocationsBody,
  cap: AllocationCap = DEFAULT_ALLOCATION_CAP,
): { answer: Allocations; replayed: boolean } {
  if (idempotencyKey === undefined || !UUID_V4.test(idempotencyKey)) throw new EngineError('INVALID_IDEMPOTENCY_KEY', { param: 'Idempotency-Key' });
  const key = idempotencyKey.toLowerCase();
  const bodyHash = createHash('sha256').update(JSON.stringify(body)).digest('hex');
  const now = ctx.now();
  return immediate(ctx.db, () => {
    const earlier = ctx.allocations.request(terminalId, key);
    if (earlier) {
      if (earlier.bodyHash !== bodyHash) throw new EngineError('IDEMPOTENCY_KEY_REUSED', { param: 'changes' });
      return { answer: JSON.parse(earlier.answer) as Allocations, replayed: true };
    }
    ctx.carts.releaseExpired(now);
    ctx.allocations.lapse(now);
    const expiresAt = now + ctx.allocationLapseMs;
    const views = body.changes.map((request, index): AllocationView => {
      const param = `changes[${index}]`;
      const stock = ctx.allocations.stock(request.occurrenceId, request.inventoryItemId);
      if (!stock || stock.active === 0) {
        throw new EngineError('INVALID_FIELD_VALUE', { param: `${param}.inventoryItemId`, details: { reason: 'unknown_inventory_item' } });
      }
      if (request.change > 0 && ctx.catalog.occurrence(request.occurrenceId)?.onSale !== 1) {
        throw new EngineError('OCCURRENCE_NOT_AVAILABLE', { param: `${param}.occurrenceId`, details: { occurrenceId: request.occurrenceId } });
      }
      const previous = ctx.allocations.get(terminalId, request.occurrenceId, request.inventoryItemId)?.quantity ?? 0;
      const outcome = planChange(stock, previous, request, param, capFor(cap, stock.capacity));
      const row = { terminalId, occurrenceId: request.occurrenceId, inventoryItemId: request.inventoryItemId, quantity: outcome.quantity, expiresAt };
      ctx.allocations.set(row, previous);
      const after = { ...stock, allocated: stock.allocated + outcome.quantity - previous };
      return { occurrenceId: row.occurrenceId, inventoryItemId: row.inventoryItemId, quantity: outcome.quantity, available: placesLeft(after), change: outcome.applied };
    });
    ctx.allocations.renew(terminalId, expiresAt, now);
    const answer = { terminalId, lapseSeconds: Math.round(ctx.allocationLapseMs / 1000), expiresAt: new Date(expiresAt).toISOString(), allocations: views };
    ctx.allocations.keepRequest(terminalId, key, bodyHash, answer, now);
    return { answer, replayed: false };
  });
}

/** GET /allocations: the calling terminal's live allocations; the call itself renews them. */
export function listAllocations(ctx: EngineContext, terminalId: string): Allocations {
  const now = ctx.now();
  return immediate(ctx.db, () => {
    ctx.carts.releaseExpired(now);
    ctx.allocations.lapse(now);
    const expiresAt = now + ctx.allocationLapseMs;
    ctx.allocations.renew(terminalId, expiresAt, now);
    const allocations = ctx.allocations.ofTerminal(terminalId).map((row): AllocationView => {
      const stock = ctx.allocations.stock(row.occurrenceId, row.inventoryItemId);
      return { occurrenceId: row.occurrenceId, inventoryItemId: row.inventoryItemId, quantity: row.quantity, available: stock ? placesLeft(stock) : 0 };
    });
    return { terminalId, lapseSeconds: Math.round(ctx.allocationLapseMs / 1000), expiresAt: new Date(expiresAt).toISOString(), allocations };
  });
}
