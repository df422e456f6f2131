import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { expect } from '@playwright/test';

/**
 * A second app server for a spec that needs one configured otherwise than the
 * one scripts/e2e.mjs starts (single sign-on, an AI endpoint): on a fresh
 * embedded database (no DATABASE_URL, no SMTP), serving the same web build,
 * with the same first administrator.
 */
export type AppServer = {
  url: string;
  /** Stops the server and removes its database. */
  stop(): Promise<void>;
};

/**
 * Starts it on `port` with `env` added and waits until /readyz answers.
 * `name` says which server in the error when it exits before it is ready;
 * `seedRows` (a JSON file of risk rows) is loaded into the database first.
 */
export async function startAppServer(options: { name: string; port: number; env?: NodeJS.ProcessEnv; seedRows?: string }): Promise<AppServer> {
  const root = process.cwd();
  const url = `http://127.0.0.1:${options.port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `grc-e2e-${options.name}-`));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...options.env,
    PORT: String(options.port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_EMAIL: 'admin@example.com',
    ADMIN_PASSWORD: 'Initial#Pass1',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'production',
    WEB_DIST: path.resolve(root, process.env.E2E_WEB_DIST ?? 'web/dist'),
    JOB_POLL_SECONDS: '0.5',
  };
  delete env.DATABASE_URL;
  delete env.SMTP_URL;
  if (options.seedRows) {
    const seeded = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/seed-rows.ts', options.seedRows], { cwd: root, env, stdio: 'inherit' });
    expect(seeded.status).toBe(0);
  }
  const server = spawn(process.execPath, ['--import', 'tsx', 'api/src/main.ts'], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
  let exited = false;
  server.on('exit', () => (exited = true));
  const stop = async () => {
    if (!exited) {
      const stopped = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      await stopped;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await expect
      .poll(
        async () => {
          if (exited) throw new Error(`the ${options.name} server exited before it was ready`);
          return fetch(`${url}/readyz`)
            .then((r) => r.ok)
            .catch(() => false);
        },
        { timeout: 60_000 },
      )
      .toBe(true);
  } catch (e) {
    await stop();
    throw e;
  }
  return { url, stop };
}
