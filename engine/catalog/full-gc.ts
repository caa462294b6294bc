import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full garbage collection, now. For one moment only: after a seat map of an arena has been prepared, which
 * leaves ~100 MB of short-lived objects (the view of every seat, the serializer's text) promoted to V8's old
 * generation during the second it takes. Nothing afterwards makes V8 collect them — the steady traffic is young
 * garbage — so they would stay resident until the engine idles. V8's `gc` is reached as Node's own
 * documentation of `v8.setFlagsFromString` shows (`--expose-gc`, then `gc` from a new context).
 */
let collect: (() => void) | undefined;
export function fullGc(): void {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    collect = typeof gc === 'function' ? () => gc() : () => undefined;
  }
  collect();
}
