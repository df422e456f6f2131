// The server as `npm start` runs it (same heap flags), in production mode,
// serving a given web build: for the web benchmarks (bench-web-lighthouse.mjs,
// bench-web-trace.mjs). The caller waits for /readyz and stops the child.
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Starts the API serving `dist` on 127.0.0.1:`port` against `databaseUrl`, with the administrator's password. */
export function startWebServer({ port, databaseUrl, dist, dataDir, adminPassword, jobPollSeconds }) {
  return spawn(process.execPath, ['--max-old-space-size=192', '--max-semi-space-size=4', '--import', 'tsx', 'api/src/main.ts'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      WEB_DIST: dist,
      ADMIN_EMAIL: 'admin@example.com',
      ADMIN_PASSWORD: adminPassword,
      LOG_LEVEL: 'warn',
      JOB_POLL_SECONDS: String(jobPollSeconds),
    },
  });
}
