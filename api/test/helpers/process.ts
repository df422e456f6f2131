// The server as a real process (`tsx api/src/main.ts`), for tests of start-up,
// shutdown and several instances: its output is kept, its exit awaited.
import fs from 'node:fs';
import path from 'node:path';
import net from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';

const root = path.resolve(import.meta.dirname, '../../..');

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  url: string;
  /** stdout and stderr so far. */
  output(): string;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
}

/** The node flags `npm start` runs the server with (its heap limit), read from package.json. */
export function npmStartNodeFlags(): string[] {
  const start: string = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.start;
  return start.split(/\s+/).filter((a) => /^--max-[\w-]+=\d+$/.test(a));
}

/** The server on `port`; `nodeFlags` are given to node (npmStartNodeFlags(): the heap of `npm start`). */
export function spawnServer(env: Record<string, string>, port: number, nodeFlags: string[] = []): ServerProcess {
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', 'api/src/main.ts'], {
    cwd: root,
    env: { ...process.env, REDIS_URL: '', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, port, url: `http://127.0.0.1:${port}`, output: () => out + err, stdout: () => out, stderr: () => err, exited };
}

/** Resolves once /readyz answers 200; fails when the process exits first or after `ms`. */
export async function waitReady(p: ServerProcess, ms = 90_000): Promise<void> {
  let gone = false;
  void p.exited.then(() => (gone = true));
  const deadline = Date.now() + ms;
  for (;;) {
    if (gone) throw new Error(`server on ${p.port} exited during start: ${p.output().slice(-2000)}`);
    try {
      if ((await fetch(`${p.url}/readyz`)).ok) return;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) throw new Error(`server on ${p.port} did not start: ${p.output().slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** The PostgreSQL server to use (DATABASE_URL, else the local one), or undefined when none answers. */
export async function reachablePostgres(): Promise<string | undefined> {
  const url = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
    return url;
  } catch {
    return undefined;
  }
}
