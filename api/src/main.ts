// Starts the server: `npm start` (or `tsx api/src/main.ts`). A start that fails
// says why in one line and exits 1; SIGTERM stops gracefully (app.shutdown)
// and the process exits within SHUTDOWN_TIMEOUT_SECONDS whatever it is doing.
import { loadConfig, type Config } from './config.js';
import { createApp, type App } from './app.js';

function oneLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/\s*\n\s*/g, ' ').trim();
}

let config: Config;
let app: App;
const started = Date.now();
try {
  config = loadConfig();
  app = await createApp(config);
  await app.server.app.listen({ port: config.PORT, host: config.HOST });
} catch (err) {
  console.error(`[grc] start failed: ${oneLine(err)}`);
  process.exit(1);
}
if (app.generatedAdminPassword) {
  // Printed once, on the start that created the administrator.
  console.log(
    `\n  First administrator: ${config.ADMIN_EMAIL}\n  Initial password:    ${app.generatedAdminPassword}\n  (you will be asked to change it at first sign-in)\n`,
  );
}
app.deps.log(`ready on http://localhost:${config.PORT} (${app.deps.db.kind}) in ${Date.now() - started} ms`);

let closing = false;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    if (closing) return;
    closing = true;
    const timeoutMs = config.SHUTDOWN_TIMEOUT_SECONDS * 1000;
    // Bounded whatever happens below (a hung query, a client that never finishes).
    setTimeout(() => {
      console.error(`[grc] shutdown took over ${config.SHUTDOWN_TIMEOUT_SECONDS} s; exiting now`);
      process.exit(1);
    }, timeoutMs).unref();
    app.deps.log(`${sig}: shutting down`);
    // Ctrl-C in a terminal needs no load balancer to notice.
    const drainMs = sig === 'SIGTERM' ? config.SHUTDOWN_DRAIN_SECONDS * 1000 : 0;
    app
      .shutdown({ drainMs, timeoutMs: timeoutMs - 500 })
      .then(() => process.exit(0))
      .catch((e) => {
        console.error(`[grc] shutdown failed: ${oneLine(e)}`);
        process.exit(1);
      });
  });
}
