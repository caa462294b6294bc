import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { CatalogDocument, CatalogImportResult, EventView, InventoryView, LocationView } from '../../contract/catalog';
import { CurrencyQuery, Id, LIMITS, replies } from '../../contract/common';
import { importCatalog, listEvents, listLocations, occurrenceInventory } from '../../use-cases/catalog';
import type { EngineContext } from '../../use-cases/context';
import { pickLanguage } from '../i18n';
import { exportCatalog, VOUCHER_READERS } from '../../use-cases/export-catalog';
import { grants } from '../../domain/scopes';

const read = { scope: 'catalog:read' } as const;
const tags = ['catalog'];

export const catalogRoutes: FastifyPluginAsyncTypebox<{ ctx: EngineContext }> = async (app, { ctx }) => {
  app.put(
    '/catalog',
    {
      config: { scope: 'catalog:write' },
      bodyLimit: LIMITS.maxCatalogBytes,
      schema: {
        tags,
        summary: 'Import a catalog document (contract §2)',
        description: `At most ${LIMITS.maxCatalogBytes} bytes (16 MiB, some 250,000 seats); a larger body answers 413 BODY_TOO_LARGE with details.limit.`,
        body: CatalogDocument,
        response: replies(200, CatalogImportResult),
      },
    },
    async (request) => ({ data: importCatalog(ctx, request.body) }),
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
      return { data: exportCatalog(ctx, { withVouchers: VOUCHER_READERS.some((scope) => grants(scopes, scope)) }) };
    },
  );

  // Catalog names come in the request's language (Accept-Language: en, de, fr) where the catalog translates
  // them, else in its default; GET /catalog gives every translation.
  const named = { description: 'Names are answered in the Accept-Language (en, de, fr) where the catalog translates them.' };

  app.get('/locations', { config: read, schema: { tags, summary: 'List locations with their currencies and time zones', ...named, response: replies(200, Type.Array(LocationView)) } }, async (request) => ({
    data: listLocations(ctx, pickLanguage(request.headers['accept-language'])),
  }));

  app.get('/events', { config: read, schema: { tags, summary: 'List events with their occurrences', ...named, response: replies(200, Type.Array(EventView)) } }, async (request) => ({
    data: listEvents(ctx, pickLanguage(request.headers['accept-language'])),
  }));

  app.get(
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
    async (request) => ({ data: occurrenceInventory(ctx, request.params.occurrenceId, request.query.currency, pickLanguage(request.headers['accept-language'])) }),
  );
};
