import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/** `serve` as a real child process (node + tsx), for tests that must kill it. */

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
}

/** `env` adds to the test's environment: secrets such as KASSA_UPSTREAM_KEY go there, never into `args`. */
export async function startServe(args: readonly string[], timeoutMs = 20_000, env: Readonly<Record<string, string>> = {}): Promise<ServeProcess> {
  return startServeCommand([process.execPath, '--import', 'tsx', 'engine/cli/serve.ts', '--port', '0', ...args], timeoutMs, env);
}

/**
 * `serve` started from a whole command line (`[node, …node flags, script, …serve flags]`, as a systemd unit's
 * ExecStart names it), in the repository's folder; resolves once it says `listening on`.
 */
export async function startServeCommand(command: readonly string[], timeoutMs = 20_000, env: Readonly<Record<string, string>> = {}): Promise<ServeProcess> {
  const [file, ...args] = command;
  if (file === undefined) throw new Error('no command');
  const child = spawn(file, args, {
    cwd: new URL('../../', import.meta.url),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    // not ready in time: stopped here, so that no engine outlives the test that started it
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not start within ${timeoutMs} ms: ${stdout}${stderr}`));
    }, timeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}: ${stdout}${stderr}`));
    });
  });
  return { child, url, output: () => stdout + stderr };
}

export async function kill(proc: ServeProcess, signal: NodeJS.Signals): Promise<number | null> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return proc.child.exitCode;
  const exited = once(proc.child, 'exit');
  proc.child.kill(signal);
  const [code] = (await exited) as [number | null];
  return code;
}
