// A child process of test/store/postgres-schema.test.ts: loads, says `ready`, waits for a line on stdin (the
// parent sends it to every child at once), opens the database with openPostgres (which migrates it), prints the
// versions it then finds and exits. Usage: postgres-open-child.ts <url>.
import { once } from 'node:events';
import { openPostgres } from '../../engine/store/postgres/connect';

const url = process.argv[2];
if (url === undefined) throw new Error('usage: postgres-open-child.ts <url>');
process.stdout.write('ready\n');
await once(process.stdin, 'data');
const pool = await openPostgres(url);
const { rows } = await pool.query<{ version: number }>('SELECT version FROM kassa_schema');
process.stdout.write(`${JSON.stringify({ versions: rows.map((row) => row.version) })}\n`);
await pool.end();
process.stdin.destroy();
