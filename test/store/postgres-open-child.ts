// A child process of test/store/postgres-schema.test.ts: waits until the given moment (epoch ms), opens the
// database with openPostgres (which migrates it), prints what it found and exits. Usage: <url> <startAt>.
import { openPostgres } from '../../engine/store/postgres/connect';

const [url, startAt] = process.argv.slice(2);
if (url === undefined || startAt === undefined) throw new Error('usage: postgres-open-child.ts <url> <startAt>');
await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(startAt) - Date.now())));
const pool = await openPostgres(url);
const { rows } = await pool.query<{ version: number }>('SELECT version FROM kassa_schema');
process.stdout.write(JSON.stringify({ versions: rows.map((row) => row.version) }));
await pool.end();
