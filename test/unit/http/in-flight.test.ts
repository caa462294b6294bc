import { describe, expect, it } from 'vitest';
import { inFlight } from '../../../engine/http/in-flight';

describe('work in flight at shutdown', () => {
  it('settles at once when nothing runs', async () => {
    await expect(inFlight().settled(1_000)).resolves.toBe(0);
  });

  it('waits for the last piece of work to end, and an end called twice counts once', async () => {
    const work = inFlight();
    const first = work.begin();
    const second = work.begin();
    let settled: number | undefined;
    expect(work.running).toBe(2);
    const waiting = work.settled(5_000).then((left) => (settled = left));
    first();
    first();
    expect(work.running).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBeUndefined();
    second();
    await expect(waiting).resolves.toBe(0);
  });

  it('work that begins in the turn the last one ended is waited for too', async () => {
    const work = inFlight();
    const handler = work.begin();
    const waiting = work.settled(5_000);
    let hook: (() => void) | undefined;
    // a handler ends and its answer's hook (the wait for the disk) begins right after, within the same turn
    handler();
    queueMicrotask(() => (hook = work.begin()));
    await new Promise((resolve) => setTimeout(resolve, 20));
    let settled = false;
    void waiting.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    hook?.();
    await expect(waiting).resolves.toBe(0);
  });

  it('gives up after its time with the number still running', async () => {
    const work = inFlight();
    work.begin();
    const started = Date.now();
    await expect(work.settled(200)).resolves.toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });
});
