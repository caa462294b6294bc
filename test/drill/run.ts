import { runCrashDrill } from './crash-drill';

/** `npm run drill [-- KILLS [SEED]]`: the crash drill with 100 SIGKILLs (about ten minutes on two cores). */
const kills = Number(process.argv[2] ?? '100');
const seed = Number(process.argv[3] ?? Date.now());
console.log(`crash drill: ${kills} SIGKILLs, seed ${seed}`);
const report = await runCrashDrill({ kills, seed, log: (line) => console.log(line) });
console.log(`${report.kills} kills, ${report.ordersSeen} orders and ${report.cancelsSeen} cancellations answered to clients`);
if (report.violations.length > 0) {
  console.error(`INVARIANTS BROKEN:\n${report.violations.join('\n')}`);
  process.exit(1);
}
console.log('every invariant held after every restart');
