import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EngineError } from '../../domain/errors';
import type { Caller } from '../../domain/scopes';
import { AllocationHeaders, Allocations, ChangeAllocationsBody } from '../../contract/allocation';
import { replies } from '../../contract/common';
import type { AllocationCap } from '../../domain/allocations';
import { changeAllocations, listAllocations } from '../../allocations/change-allocations';
import type { EngineContext } from '../../shared/context';

/**
 * The allocation resource of a hub (contract §10). A terminal is the owner of the API key that calls (the key's
 * id, or the first key's when the key replaced another, so a rotated key keeps the till's places); the scope is the
 * terminal's own, `orders:import` (its sync key already has it, and no other role needs allocations).
 */
const config = { scope: 'orders:import' } as const;
const tags = ['allocations'];

export const allocationRoutes: FastifyPluginAsyncTypebox<{ ctx: EngineContext; cap?: AllocationCap | undefined }> = async (app, { ctx, cap }) => {
  app.get(
    '/allocations',
    { config, schema: { tags, summary: "The calling terminal's allocations; the call renews them", response: replies(200, Allocations) } },
    async (request) => ({ data: await listAllocations(ctx, terminalOf(request.caller)) }),
  );
  app.post(
    '/allocations',
    {
      config,
      schema: {
        tags,
        summary: 'Grant, top up or give back places of inventory items (one transaction, idempotent by key)',
        description:
          'Each change adds places to (or, negative, gives back from) the calling terminal\'s allocation of one inventory item. ' +
          'A grant takes what the venue has left, up to `change`. The places a terminal keeps in hand stay within the hub\'s cap per ' +
          'terminal and item (serve --allocation-cap, default 25 % of the item, at least 10 places); the `forSale` part of a change, ' +
          'the shortfall of a sale in progress, is granted beyond the cap. With `minimum`, fewer than that grants nothing and the whole ' +
          'request answers 409 INVENTORY_EXHAUSTED with `details.availableQuantity` (what the terminal could hold; ' +
          '`details.reason` "allocation_cap" and `details.allocationCap` when only the cap refused). An assigned seat ' +
          'is granted with change 1. Granted places leave `available` at once; a cart the terminal makes here uses them first. ' +
          'Allocations lapse `lapseSeconds` after the terminal last called this resource.',
        headers: AllocationHeaders,
        body: ChangeAllocationsBody,
        response: replies(200, Allocations),
      },
    },
    async (request, reply) => {
      const { answer, replayed } = await changeAllocations(ctx, terminalOf(request.caller), request.headers['idempotency-key'], request.body, cap);
      if (replayed) reply.header('idempotent-replayed', 'true');
      return { data: answer };
    },
  );
};

/** The terminal is the calling key's owner (its id unless it replaced an earlier key: `keys replace` keeps the owner). */
function terminalOf(caller: Caller | undefined): string {
  if (caller === undefined) throw new EngineError('INVALID_API_KEY');
  return caller.owner;
}
