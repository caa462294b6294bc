import type { Db } from '../../engine/store/db';
import type { Queryable } from '../../engine/store/postgres/queryable';

/**
 * A schema read into sorted lines that compare across SQLite and PostgreSQL: columns (name, type class,
 * NOT NULL, default), primary keys, unique constraints, foreign keys, named indexes (columns, order, partial or
 * not), the number of CHECK constraints per table and the trigger names.
 */
export interface SchemaShape {
  tables: string[];
  columns: string[];
  primaryKeys: string[];
  uniques: string[];
  foreignKeys: string[];
  indexes: string[];
  checks: string[];
  triggers: string[];
}

interface SqliteColumn { name: string; type: string; notnull: number; dflt_value: string | null; pk: number }
interface SqliteIndex { name: string; unique: number; origin: string; partial: number }
interface SqliteIndexColumn { seqno: number; name: string | null; desc: number; key: number }
interface SqliteForeignKey { id: number; seq: number; table: string; from: string; to: string }

/** the shape of a migrated SQLite database, read through its PRAGMAs */
export function sqliteShape(db: Db): SchemaShape {
  const shape = emptyShape();
  const tables = db.prepare<[], { name: string; sql: string }>(
    "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all();
  for (const { name: table, sql } of tables) {
    shape.tables.push(table);
    const columns = db.prepare<[], SqliteColumn>(`PRAGMA table_info(${table})`).all();
    for (const column of columns) {
      const notNull = column.notnull === 1 || column.pk > 0;
      shape.columns.push(`${table}.${column.name} ${column.type.toLowerCase()}${notNull ? ' not null' : ''} default ${column.dflt_value ?? 'none'}`);
    }
    const pk = columns.filter((column) => column.pk > 0).sort((a, b) => a.pk - b.pk).map((column) => column.name);
    if (pk.length > 0) shape.primaryKeys.push(`${table}(${pk.join(',')})`);
    for (const index of db.prepare<[], SqliteIndex>(`PRAGMA index_list(${table})`).all()) {
      const keys = db.prepare<[], SqliteIndexColumn>(`PRAGMA index_xinfo(${index.name})`).all()
        .filter((column) => column.key === 1).sort((a, b) => a.seqno - b.seqno)
        .map((column) => `${column.name ?? 'expression'}${column.desc === 1 ? ' desc' : ''}`); // an expression's key has no name
      if (index.origin === 'u') shape.uniques.push(`${table}(${keys.join(',')})`);
      if (index.origin === 'c') shape.indexes.push(`${index.name} on ${table}(${keys.join(',')})${index.unique === 1 ? ' unique' : ''}${index.partial === 1 ? ' partial' : ''}`);
    }
    const foreign = new Map<number, SqliteForeignKey[]>();
    for (const key of db.prepare<[], SqliteForeignKey>(`PRAGMA foreign_key_list(${table})`).all()) {
      foreign.set(key.id, [...(foreign.get(key.id) ?? []), key]);
    }
    for (const parts of foreign.values()) {
      parts.sort((a, b) => a.seq - b.seq);
      shape.foreignKeys.push(`${table}(${parts.map((p) => p.from).join(',')}) -> ${parts[0]?.table}(${parts.map((p) => p.to).join(',')})`);
    }
    const checks = sql.match(/\bCHECK \(/g)?.length ?? 0;
    if (checks > 0) shape.checks.push(`${table}: ${checks}`);
  }
  shape.triggers = db.prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'trigger'").pluck().all();
  return sorted(shape);
}

/** the same shape of a PostgreSQL database's public schema, less `kassa_schema` (the migration runner's version) */
export async function postgresShape(db: Queryable): Promise<SchemaShape> {
  const shape = emptyShape();
  const tables = await db.query<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> 'kassa_schema'");
  shape.tables = tables.rows.map((row) => row.name);
  const columns = await db.query<{ table: string; name: string; type: string; nullable: string; dflt: string | null }>(`
    SELECT table_name AS table, column_name AS name, data_type AS type, is_nullable AS nullable, column_default AS dflt
    FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> 'kassa_schema'`);
  for (const column of columns.rows) {
    const type = column.type === 'bigint' ? 'integer' : column.type; // SQLite has one INTEGER; widths are checked apart
    const dflt = column.dflt === null ? 'none' : column.dflt.replace(/::(text|bigint|integer)$/, '');
    shape.columns.push(`${column.table}.${column.name} ${type}${column.nullable === 'NO' ? ' not null' : ''} default ${dflt}`);
  }
  const constraints = await db.query<{ table: string; type: string; columns: string[]; ref: string | null; refColumns: string[] | null }>(`
    SELECT t.relname AS table, c.contype AS type,
      ARRAY(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY k(n, i) JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n ORDER BY k.i)::text[] AS columns,
      r.relname AS ref,
      ARRAY(SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY k(n, i) JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n ORDER BY k.i)::text[] AS "refColumns"
    FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace s ON s.oid = t.relnamespace
    LEFT JOIN pg_class r ON r.oid = c.confrelid
    WHERE s.nspname = 'public' AND t.relname <> 'kassa_schema'`);
  const checks = new Map<string, number>();
  for (const c of constraints.rows) {
    if (c.type === 'p') shape.primaryKeys.push(`${c.table}(${c.columns.join(',')})`);
    else if (c.type === 'u') shape.uniques.push(`${c.table}(${c.columns.join(',')})`);
    else if (c.type === 'f') shape.foreignKeys.push(`${c.table}(${c.columns.join(',')}) -> ${c.ref}(${(c.refColumns ?? []).join(',')})`);
    else if (c.type === 'c') checks.set(c.table, (checks.get(c.table) ?? 0) + 1);
  }
  shape.checks = [...checks].map(([table, count]) => `${table}: ${count}`);
  const indexes = await db.query<{ name: string; table: string; unique: boolean; partial: boolean; keys: string[] }>(`
    SELECT i.relname AS name, t.relname AS table, x.indisunique AS unique, x.indpred IS NOT NULL AS partial,
      ARRAY(SELECT pg_get_indexdef(x.indexrelid, k + 1, true) || CASE WHEN x.indoption[k] & 1 = 1 THEN ' desc' ELSE '' END
            FROM generate_subscripts(x.indkey, 1) k ORDER BY k) AS keys
    FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
    JOIN pg_namespace s ON s.oid = t.relnamespace
    WHERE s.nspname = 'public' AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid AND c.conrelid = x.indrelid)`);
  // pg_get_indexdef quotes key words ("position")
  // an expression's key (journal_by_shift: data.shiftId) is named 'expression', as SQLite's nameless key is above
  const key = (text: string) => (/^[a-z_0-9]+( desc)?$/.test(text.replace(/"/g, '')) ? text.replace(/"/g, '') : 'expression');
  shape.indexes = indexes.rows.map((row) => `${row.name} on ${row.table}(${row.keys.map(key).join(',')})${row.unique ? ' unique' : ''}${row.partial ? ' partial' : ''}`);
  const triggers = await db.query<{ name: string }>(`
    SELECT tg.tgname AS name FROM pg_trigger tg JOIN pg_class t ON t.oid = tg.tgrelid JOIN pg_namespace s ON s.oid = t.relnamespace
    WHERE s.nspname = 'public' AND NOT tg.tgisinternal`);
  shape.triggers = triggers.rows.map((row) => row.name);
  return sorted(shape);
}

function emptyShape(): SchemaShape {
  return { tables: [], columns: [], primaryKeys: [], uniques: [], foreignKeys: [], indexes: [], checks: [], triggers: [] };
}

function sorted(shape: SchemaShape): SchemaShape {
  const sort = (lines: string[]): string[] => [...lines].sort();
  return {
    tables: sort(shape.tables), columns: sort(shape.columns), primaryKeys: sort(shape.primaryKeys), uniques: sort(shape.uniques),
    foreignKeys: sort(shape.foreignKeys), indexes: sort(shape.indexes), checks: sort(shape.checks), triggers: sort(shape.triggers),
  };
}
