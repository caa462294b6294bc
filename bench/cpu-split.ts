import { readdirSync, readFileSync } from 'node:fs';

/**
 * Where a run's CPU time went, from /proc: the engine processes, the PostgreSQL server (the postmaster and every
 * process it forked — backends, WAL writer, checkpointer, …), the load generator, and the machine as a whole
 * (/proc/stat), so that what the engines and the database cost per sale can be told apart.
 */
export interface CpuSplit {
  /** how long the sampling ran, ms */
  wallMs: number;
  /** user + system CPU time of the engine processes together, ms */
  engineMs: number;
  /** the same per engine process, in the order given */
  perEngineMs: number[];
  /** of the PostgreSQL server's processes (0 without one), ms */
  postgresMs: number;
  /** of the load generator (bench/load.mjs), ms */
  loadMs: number;
  /** CPU time the machine spent busy (all CPUs, anything but idle, I/O wait and steal), ms */
  machineBusyMs: number;
  /** CPU time the hypervisor gave to other guests, ms */
  machineStealMs: number;
}

/** USER_HZ: the unit of /proc's CPU times (100 on every Linux that Kassa runs on) */
const TICKS_PER_SECOND = 100;
const SAMPLE_MS = 200;

/** user + system time of a process, in clock ticks; undefined once it is gone */
function ticks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/** the process ids `parent` has forked and that still run */
function childrenOf(parent: number): number[] {
  try {
    return readFileSync(`/proc/${parent}/task/${parent}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    // kernels without CONFIG_PROC_CHILDREN: every process's parent, from its stat line
    return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number).filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent;
      } catch {
        return false;
      }
    });
  }
}

/** the machine's busy and stolen CPU time so far, in clock ticks (/proc/stat's first line) */
function machine(): { busy: number; steal: number } {
  const fields = (/^cpu\s+(.*)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1] ?? '').trim().split(/\s+/).map(Number);
  // user nice system idle iowait irq softirq steal
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
  return { busy: user + nice + system + irq + softirq, steal };
}

/**
 * A process's CPU time between its first and its last sighting. `fromZero`: a process first seen after the start
 * (a backend forked during the run, the load generator) counts from its birth.
 */
class Tracked {
  private first: number;
  private last: number;
  constructor(value: number, fromZero: boolean) {
    this.first = fromZero ? 0 : value;
    this.last = value;
  }
  see(value: number): void {
    this.last = value;
  }
  get used(): number {
    return this.last - this.first;
  }
}

/**
 * Starts sampling every 200 ms (and once at once); `stop()` samples a last time and answers the split. The load
 * generator's pid may come later (`loadPid()` answers undefined until it is spawned).
 */
export function startCpuSplit(watch: { engines: readonly number[]; postmaster?: number; loadPid: () => number | undefined }): { stop: () => CpuSplit } {
  const started = performance.now();
  const machineBefore = machine();
  const engines = watch.engines.map((pid) => new Tracked(ticks(pid) ?? 0, false));
  const postgres = new Map<number, Tracked>();
  let load: Tracked | undefined;
  let first = true;
  const sample = () => {
    watch.engines.forEach((pid, i) => {
      const value = ticks(pid);
      if (value !== undefined) engines[i]?.see(value);
    });
    if (watch.postmaster !== undefined) {
      for (const pid of [watch.postmaster, ...childrenOf(watch.postmaster)]) {
        const value = ticks(pid);
        if (value === undefined) continue;
        const known = postgres.get(pid);
        if (known) known.see(value);
        else postgres.set(pid, new Tracked(value, !first));
      }
    }
    const loadPid = watch.loadPid();
    const loadTicks = loadPid === undefined ? undefined : ticks(loadPid);
    if (loadTicks !== undefined) {
      if (load) load.see(loadTicks);
      else load = new Tracked(loadTicks, true);
    }
    first = false;
  };
  sample();
  const timer = setInterval(sample, SAMPLE_MS);
  const ms = (t: number) => (t * 1000) / TICKS_PER_SECOND;
  return {
    stop() {
      clearInterval(timer);
      sample();
      const after = machine();
      const perEngineMs = engines.map((e) => ms(e.used));
      return {
        wallMs: performance.now() - started,
        engineMs: perEngineMs.reduce((a, b) => a + b, 0),
        perEngineMs,
        postgresMs: ms([...postgres.values()].reduce((sum, p) => sum + p.used, 0)),
        loadMs: ms(load?.used ?? 0),
        machineBusyMs: ms(after.busy - machineBefore.busy),
        machineStealMs: ms(after.steal - machineBefore.steal),
      };
    },
  };
}
