import { createHash } from 'node:crypto';
import { capFor, DEFAULT_ALLOCATION_CAP, planChange, placesLeft, type AllocationCap } from '../domain/allocations';
import { EngineError } from '../domain/errors';
import type { Allocations, AllocationView, ChangeAllocationsBody } from '../contract/allocation';
import type { AllocationLapse, Clock, Storage } from '../shared/context';

/**
 * POST /allocations (contract §10): grants, tops up and gives back places of inventory items to the calling
 * terminal (its API key), all changes of one request in one transaction. The Idempotency-Key makes a retried
 * request land once: the same key and body answer the first answer again. Every call renews the terminal's
 * allocations until now + the hub's lapse time. No terminal keeps more of one item in hand than `cap` allows
 * (`--allocation-cap`): past it a grant gives up to the cap, or nothing and 409 below its `minimum`; only a
 * change's `forSale` part, the shortfall of a sale in progress, is granted beyond it (domain/allocations.ts).
 */

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export async function changeAllocations(
  ctx: Storage & Clock & AllocationLapse,
  terminalId: string,
  idempotencyKey: string | undefined,
  body: ChangeAllocationsBody,
  cap: AllocationCap = DEFAULT_ALLOCATION_CAP,
): Promise<{ answer: Allocations; replayed: boolean }> {
  if (idempotencyKey === undefined || !UUID_V4.test(idempotencyKey)) throw new EngineError('INVALID_IDEMPOTENCY_KEY', { param: 'Idempotency-Key' });
  const key = idempotencyKey.toLowerCase();
  const bodyHash = createHash('sha256').update(JSON.stringify(body)).digest('hex');
  const now = ctx.now();
  return ctx.store.transaction(async (tx) => {
    // one request of a terminal at a time, then the items it changes in id order (store/port.ts Locks)
    await tx.locks.named(`allocations:${terminalId}`);
    const earlier = await tx.allocations.request(terminalId, key);
    if (earlier) {
      if (earlier.bodyHash !== bodyHash) throw new EngineError('IDEMPOTENCY_KEY_REUSED', { param: 'changes' });
      return { answer: JSON.parse(earlier.answer) as Allocations, replayed: true };
    }
    await tx.carts.releaseExpired(now);
    await tx.allocations.lapse(now);
    const expiresAt = now + ctx.allocationLapseMs;
    for (const [occurrenceId, items] of byOccurrence(body.changes)) await tx.locks.inventory(occurrenceId, items);
    const views: AllocationView[] = [];
    for (const [index, request] of body.changes.entries()) {
      const param = `changes[${index}]`;
      const stock = await tx.allocations.stock(request.occurrenceId, request.inventoryItemId);
      if (!stock || stock.active === 0) {
        throw new EngineError('INVALID_FIELD_VALUE', { param: `${param}.inventoryItemId`, details: { reason: 'unknown_inventory_item' } });
      }
      if (request.change > 0 && (await tx.catalog.occurrence(request.occurrenceId))?.onSale !== 1) {
        throw new EngineError('OCCURRENCE_NOT_AVAILABLE', { param: `${param}.occurrenceId`, details: { occurrenceId: request.occurrenceId } });
      }
      const previous = (await tx.allocations.get(terminalId, request.occurrenceId, request.inventoryItemId))?.quantity ?? 0;
      const outcome = planChange(stock, previous, request, param, capFor(cap, stock.capacity));
      const row = { terminalId, occurrenceId: request.occurrenceId, inventoryItemId: request.inventoryItemId, quantity: outcome.quantity, expiresAt };
      await tx.allocations.set(row, previous);
      const after = { ...stock, allocated: stock.allocated + outcome.quantity - previous };
      views.push({ occurrenceId: row.occurrenceId, inventoryItemId: row.inventoryItemId, quantity: outcome.quantity, available: placesLeft(after), change: outcome.applied });
    }
    await tx.allocations.renew(terminalId, expiresAt, now);
    const answer = { terminalId, lapseSeconds: Math.round(ctx.allocationLapseMs / 1000), expiresAt: new Date(expiresAt).toISOString(), allocations: views };
    await tx.allocations.keepRequest(terminalId, key, bodyHash, answer, now);
    return { answer, replayed: false };
  });
}

/** GET /allocations: the calling terminal's live allocations; the call itself renews them. */
export async function listAllocations(ctx: Storage & Clock & AllocationLapse, terminalId: string): Promise<Allocations> {
  const now = ctx.now();
  return ctx.store.transaction(async (tx) => {
    await tx.carts.releaseExpired(now);
    await tx.allocations.lapse(now);
    const expiresAt = now + ctx.allocationLapseMs;
    await tx.allocations.renew(terminalId, expiresAt, now);
    const allocations: AllocationView[] = [];
    for (const row of await tx.allocations.ofTerminal(terminalId)) {
      const stock = await tx.allocations.stock(row.occurrenceId, row.inventoryItemId);
      allocations.push({ occurrenceId: row.occurrenceId, inventoryItemId: row.inventoryItemId, quantity: row.quantity, available: stock ? placesLeft(stock) : 0 });
    }
    return { terminalId, lapseSeconds: Math.round(ctx.allocationLapseMs / 1000), expiresAt: new Date(expiresAt).toISOString(), allocations };
  });
}

/** The items a request changes, per occurrence, each list in id order (the order their locks are taken in). */
function byOccurrence(changes: ChangeAllocationsBody['changes']): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const change of changes) out.set(change.occurrenceId, [...(out.get(change.occurrenceId) ?? []), change.inventoryItemId]);
  for (const [occurrenceId, items] of out) out.set(occurrenceId, [...new Set(items)].sort());
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
