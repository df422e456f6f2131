// Runs `prisma generate` without the native schema engine. The Prisma CLI wants
// to download that engine before any command, but `generate` never uses it, so
// we point PRISMA_SCHEMA_ENGINE_BINARY at a file that exists (this Node binary).
// Works offline and on air-gapped servers.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let cli;
try {
  cli = require.resolve('prisma/build/index.js');
} catch {
  console.log('prisma CLI not installed (production install?); skipping generate');
  process.exit(0);
}
const env = {
  ...process.env,
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY || process.execPath,
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
  CHECKPOINT_DISABLE: '1',
};
const r = spawnSync(process.execPath, [cli, 'generate', '--schema', 'prisma/schema.prisma'], {
  stdio: 'inherit',
  env,
});
process.exit(r.status ?? 1);
