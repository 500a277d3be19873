import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const children: ChildProcess[] = [];
process.on('exit', () => children.forEach((child) => child.kill('SIGKILL')));

/** Starts a Node script as its own process (killed when the bench exits) and resolves with the port it prints. */
export function startChild(
  root: string,
  args: string[],
  env: Record<string, string>,
  portPattern: RegExp,
): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (data: Buffer) => {
      output += data.toString();
      const match = portPattern.exec(output);
      if (match?.[1]) resolve({ child, port: Number(match[1]) });
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

/** What `calltape proxy` prints once it listens, its port in the first group. */
export const proxyListening = /listening on http:\/\/127\.0\.0\.1:(\d+)/;

/** Starts the scripted bench upstream (`bench-upstream.ts`) as its own process; `url` is its origin. */
export async function startBenchUpstream(
  root: string,
): Promise<{ child: ChildProcess; port: number; url: string }> {
  const started = await startChild(
    root,
    [join(root, 'dist/bench/bench-upstream.js')],
    {},
    /^(\d+)\n/,
  );
  return { ...started, url: `http://127.0.0.1:${started.port}` };
}

/** Every child started so far, for benches that stop them themselves. */
export function startedChildren(): readonly ChildProcess[] {
  return children;
}

/** The arguments that start `calltape proxy` on a free port in front of one upstream for both wires. */
export function proxyArgs(
  root: string,
  upstreamUrl: string,
  mode: string,
  ...more: string[]
): string[] {
  return [
    join(root, 'dist/src/cli/main.js'),
    'proxy',
    '--port',
    '0',
    '--upstream',
    upstreamUrl,
    '--anthropic-upstream',
    upstreamUrl,
    '--ollama-upstream',
    upstreamUrl,
    '--gemini-upstream',
    upstreamUrl,
    '--log-level',
    'error',
    '--mode',
    mode,
    ...more,
  ];
}
