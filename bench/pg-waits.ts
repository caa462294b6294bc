import pg from 'pg';

/**
 * What the PostgreSQL sessions of a run were doing, sampled every 100 ms from pg_stat_activity: per wait
 * (`Lock:transactionid`, `Lock:tuple`, `IO:WALSync`, `LWLock:WALWrite`, …; `running` for an active session
 * waiting on nothing, `engine` for one idle in a transaction — the database waits for the engine's next
 * statement), the mean number of the database's sessions in it. Tells a run bound by row locks or by the
 * commit's flush from one bound by the engines.
 */
export async function startWaitSampler(database: string): Promise<{ stop: () => Promise<Record<string, number>> }> {
  const client = new pg.Client({ connectionString: database, application_name: 'kassa-bench-waits' });
  await client.connect();
  const counts = new Map<string, number>();
  let samples = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const { rows } = await client.query<{ what: string; n: number }>(
        `SELECT CASE WHEN state = 'idle in transaction' THEN 'engine'
                     WHEN wait_event IS NULL THEN 'running'
                     ELSE wait_event_type || ':' || wait_event END AS what, COUNT(*)::int AS n
           FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND state IN ('active', 'idle in transaction')
          GROUP BY 1`);
      samples += 1;
      for (const row of rows) counts.set(row.what, (counts.get(row.what) ?? 0) + row.n);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return {
    async stop() {
      running = false;
      try {
        await loop;
      } finally {
        await client.end();
      }
      return Object.fromEntries([...counts].sort((a, b) => b[1] - a[1]).map(([what, n]) => [what, Math.round((100 * n) / Math.max(1, samples)) / 100]));
    },
  };
}
