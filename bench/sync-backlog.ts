import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pino from 'pino';
import type { CatalogDocument } from '../engine/contract/catalog';
import { openDatabase } from '../engine/store/db';
import { startEngine } from '../engine/start';
import { createKeyRepo } from '../engine/store/key-repo';
import { sellDirect } from '../test/helpers/sold-orders';

/**
 * Scenario "sync backlog": a terminal with `orders` sales waiting in its outbox starts against a healthy Kassa
 * hub on loopback, both at the shipped defaults — the hub a `serve` process of its own, the terminal in this
 * (otherwise idle) process, so that its key never appears in a command line; measured from the terminal's
 * start until its outbox is empty. What a venue's terminal does when the line comes back after an outage.
 */

export interface BacklogResult {
  readonly orders: number;
  readonly seconds: number;
  readonly ordersPerSecond: number;
}

interface Running { readonly url: string }

export interface Servers<S extends Running> {
  start(name: string, args: readonly string[]): Promise<S>;
  stop(server: S): Promise<void>;
}

const SALE = { occurrenceId: 'backlog-1', inventoryItemId: 'floor', priceOptionId: 'floor-adult' } as const;

function backlogCatalog(): CatalogDocument {
  return {
    locations: [{ id: 'hall', name: 'Backlog Hall', currencies: ['EUR'] }],
    events: [
      {
        id: 'backlog',
        name: 'Backlog Night',
        locationId: 'hall',
        kind: 'ticket',
        occurrences: [
          {
            id: SALE.occurrenceId,
            startsAt: '2027-06-01T18:00:00Z',
            onSale: true,
            areas: [
              {
                id: 'floor',
                name: 'Floor',
                seating: 'general',
                priceOptions: [{ id: SALE.priceOptionId, name: 'Adult', price: { amount: 2500, currency: 'EUR' } }],
                inventoryItems: [{ id: SALE.inventoryItemId, label: 'Floor', capacity: 100_000 }],
              },
            ],
          },
        ],
      },
    ],
  };
}

export async function syncBacklog<S extends Running>(servers: Servers<S>, work: string, orders: number): Promise<BacklogResult> {
  const hubDir = join(work, 'sync-hub');
  const terminalDir = join(work, 'sync-terminal');
  mkdirSync(hubDir, { recursive: true });
  const catalogPath = join(work, 'sync-catalog.json');
  const catalog = backlogCatalog();
  writeFileSync(catalogPath, JSON.stringify(catalog));

  const hubDb = openDatabase(hubDir);
  const key = createKeyRepo(hubDb).create('terminal', ['catalog:read', 'carts:write', 'orders:write', 'orders:import']).key;
  hubDb.close();
  await sellDirect(terminalDir, orders, SALE, catalog);

  const common = ['--import', 'tsx', 'engine/cli/serve.ts', '--port', '0', '--rate-limit', '0', '--no-demo', '--log-level', 'warn'];
  const hub = await servers.start('sync hub', [...common, '--data', hubDir, '--catalog', catalogPath]);
  const started = performance.now();
  const terminal = await startEngine({ dataDir: terminalDir, port: 0, demo: false, uiDir: false, logger: pino({ level: 'warn' }), upstream: { url: hub.url, key } });
  try {
    const outbox = new Database(join(terminalDir, 'kassa.sqlite'), { readonly: true, fileMustExist: true });
    try {
      const waiting = outbox.prepare<[], { n: number }>(`SELECT COUNT(*) AS n FROM outbox WHERE state = 'pending'`);
      const deadline = started + 300_000;
      while ((waiting.get()?.n ?? 0) > 0) {
        if (performance.now() > deadline) throw new Error('sync backlog: not drained within 5 minutes');
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    } finally {
      outbox.close();
    }
    const seconds = (performance.now() - started) / 1000;
    return { orders, seconds, ordersPerSecond: orders / seconds };
  } finally {
    await terminal.close();
    await servers.stop(hub);
  }
}
