import Database from 'better-sqlite3';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../../../engine/store/db';
import { createKeyRepo } from '../../../engine/store/key-repo';

/**
 * Upgrading to ownership (migration 0016): a venue's integrations keep seeing every order — keys that read or
 * wrote orders get orders:any — but terminal keys (orders:import) and the UI's key do not.
 */
const SOURCE = fileURLToPath(new URL('../../../engine/store/migrations/', import.meta.url));
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('migration 0016-ownership', () => {
  it('gives orders:any to the live keys that had orders:read or orders:write, except terminals and the UI key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kassa-0016-'));
    dirs.push(dir);
    const before = join(dir, 'before');
    mkdirSync(before);
    for (const file of readdirSync(SOURCE).filter((name) => /^\d{4}-.+\.sql$/.test(name) && Number(name.slice(0, 4)) < 16)) copyFileSync(join(SOURCE, file), join(before, file));
    const db = new Database(join(dir, 'kassa.sqlite'));
    try {
      migrate(db, before);
      const insert = db.prepare<[string, string, string, string, string | null]>("INSERT INTO api_keys (id, name, hash, scopes, created_at, revoked_at) VALUES (?, ?, ?, ?, 'then', ?)");
      insert.run('k_reader', 'reporting', 'h1', '["orders:read"]', null);
      insert.run('k_writer', 'web shop', 'h2', '["carts:write","orders:write"]', null);
      insert.run('k_terminal', 'till 2', 'h3', '["catalog:read","carts:write","orders:write","orders:import"]', null);
      insert.run('k_ui', 'ui-session', 'h4', '["catalog:read","carts:write","orders:read","orders:write","sync"]', null);
      insert.run('k_revoked', 'old', 'h5', '["orders:read"]', 'later');
      insert.run('k_catalog', 'catalog', 'h6', '["catalog:read"]', null);
      insert.run('k_admin', 'admin', 'h7', '["admin"]', null);

      migrate(db, SOURCE);
      const scopes = Object.fromEntries(
        db.prepare<[], { id: string; scopes: string }>('SELECT id, scopes FROM api_keys ORDER BY id').all().map((row) => [row.id, JSON.parse(row.scopes) as string[]]),
      );
      expect(scopes).toEqual({
        k_admin: ['admin'],
        k_catalog: ['catalog:read'],
        k_reader: ['orders:read', 'orders:any'],
        k_revoked: ['orders:read'],
        k_terminal: ['catalog:read', 'carts:write', 'orders:write', 'orders:import'],
        k_ui: ['catalog:read', 'carts:write', 'orders:read', 'orders:write', 'sync'],
        k_writer: ['carts:write', 'orders:write', 'orders:any'],
      });
      // a key made before owns alone, and authenticates as before
      expect(db.prepare("SELECT owner, expires_at FROM api_keys WHERE id = 'k_reader'").get()).toEqual({ owner: null, expires_at: null });
      const made = createKeyRepo(db).create('new', ['orders:read']);
      expect(createKeyRepo(db).authenticate(made.key)).toEqual({ id: made.id, owner: made.id, scopes: ['orders:read'] });
    } finally {
      db.close();
    }
  });
});
