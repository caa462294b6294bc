import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AvailabilityQuery, AvailabilityView, CatalogDocument, CatalogImportResult, EventView, InventoryView, LocationView } from '../../contract/catalog';
import { CurrencyQuery, Id, LIMITS, replies } from '../../contract/common';
import { occurrenceAvailabilityJson } from '../../catalog/availability';
import { listEvents, listLocations, occurrenceInventory } from '../../catalog/catalog';
import { importCatalogInSlices } from '../../catalog/import-catalog';
import type { EngineContext } from '../../shared/context';
import { exportCatalog, VOUCHER_READERS } from '../../catalog/export-catalog';
import { grants } from '../../domain/scopes';
import { inventoryJson } from '../../catalog/seat-map';

const read = { scope: 'catalog:read' } as const;
const tags = ['catalog'];

export const catalogRoutes: FastifyPluginAsyncTypebox<{ ctx: EngineContext }> = async (app, { ctx }) => {
  app.put(
    '/catalog',
    {
      config: { scope: 'catalog:write' },
      bodyLimit: LIMITS.maxCatalogBytes,
      // Parsing a body of 16 MiB and checking it against the schema each hold the event loop a few hundred ms:
      // a turn of the loop between the two lets other requests through (the import itself runs in slices).
      preValidation: async () => {
        await nextTurn();
      },
      schema: {
        tags,
        summary: 'Import a catalog document (contract §2)',
        description:
          `At most ${LIMITS.maxCatalogBytes} bytes (16 MiB, some 250,000 seats); a larger body answers 413 BODY_TOO_LARGE with details.limit. ` +
          'All or nothing: a document that breaks a rule answers 400 and changes nothing. A large document is imported in slices, so the engine ' +
          'keeps answering other requests meanwhile; they see the previous catalog until this request is answered. Imports run one after another.',
        body: CatalogDocument,
        response: replies(200, CatalogImportResult),
      },
    },
    async (request) => ({ data: await importCatalogInSlices(ctx, request.body) }),
  );

  app.get(
    '/catalog',
    {
      config: read,
      schema: {
        tags,
        summary: 'The catalog document (contract §2), to serve as another engine\'s upstream',
        description: 'Voucher codes and their terms (`vouchers`) only for keys with catalog:write, admin or orders:import (a terminal\'s sync key); '
          + 'a key with catalog:read alone gets the document without `vouchers`.',
        response: replies(200, CatalogDocument),
      },
    },
    async (request) => {
      const scopes = request.apiKeyScopes ?? [];
      return { data: await exportCatalog(ctx, { withVouchers: VOUCHER_READERS.some((scope) => grants(scopes, scope)) }) };
    },
  );

  // Catalog names come in the request's language (Accept-Language: en, de, fr) where the catalog translates
  // them, else in its default; GET /catalog gives every translation.
  const named = { description: 'Names are answered in the Accept-Language (en, de, fr) where the catalog translates them.' };

  app.get('/locations', { config: read, schema: { tags, summary: 'List locations with their currencies and time zones', ...named, response: replies(200, Type.Array(LocationView)) } }, async (request) => ({
    data: await listLocations(ctx, request.language),
  }));

  app.get('/events', { config: read, schema: { tags, summary: 'List events with their occurrences', ...named, response: replies(200, Type.Array(EventView)) } }, async (request) => ({
    data: await listEvents(ctx, request.language),
  }));

  // Reply: the answer is JSON text (see below); the schema still documents it and types the rest.
  app.get<{ Params: { occurrenceId: string }; Querystring: { currency?: string }; Reply: string | Readable }>(
    '/occurrences/:occurrenceId/inventory',
    {
      config: read,
      schema: {
        tags,
        summary: 'Areas, price options, inventory items with live availability, and extras of an occurrence',
        ...named,
        params: Type.Object({ occurrenceId: Id }),
        querystring: CurrencyQuery,
        response: replies(200, InventoryView),
      },
    },
    // The answer is stitched from prepared JSON (catalog/seat-map.ts), byte for byte what the schema's
    // serializer would make of it; a string with a JSON content type is sent as it is.
    async (request, reply) => {
      const serialize = reply.getSerializationFunction('200');
      if (!serialize) throw new Error('the inventory route has no serializer for 200');
      const language = request.language;
      // A terminal of a hub shows what it can sell (its hand, and online what the venue has left): not a
      // column of its own database, so its (small, terminal-sized) seat maps take the plain view.
      if (ctx.syncing && ctx.terminal.sellsFromHoldings) {
        return reply.type('application/json; charset=utf-8').send(serialize({ data: await occurrenceInventory(ctx, request.params.occurrenceId, request.query.currency, language) }));
      }
      const json = await inventoryJson(ctx, serialize, request.params.occurrenceId, request.query.currency, language);
      return reply.type('application/json; charset=utf-8').send(typeof json === 'string' ? json : Readable.from(json, { objectMode: false }));
    },
  );

  app.get<{ Params: { occurrenceId: string }; Querystring: { since?: string }; Reply: string }>(
    '/occurrences/:occurrenceId/availability',
    {
      config: read,
      schema: {
        tags,
        summary: 'Live availability of an occurrence in compact form: per area and per item, or only what changed since a version',
        description:
          'For seat maps of tens of thousands of seats: fetch the inventory once, then poll this with `since` set to the last answer\'s `version`. ' +
          'When `complete` is true the catalog was imported again since that version (or no `since` was given): every item is listed, and a client ' +
          'holding an inventory should fetch it afresh. Versions are kept in the database and stay valid across restarts.',
        params: Type.Object({ occurrenceId: Id }),
        querystring: AvailabilityQuery,
        response: replies(200, AvailabilityView),
      },
    },
    async (request, reply) =>
      reply.type('application/json; charset=utf-8').send(await occurrenceAvailabilityJson(ctx, request.params.occurrenceId, request.query.since)),
  );
};
