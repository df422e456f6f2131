// Starts the server: `npm start` (or `tsx api/src/main.ts`). A start that fails
// says why in one line and exits 1; SIGTERM stops gracefully (app.shutdown)
// and the process exits within SHUTDOWN_TIMEOUT_SECONDS whatever it is doing.
// When only a new process can carry on (the embedded database after its disk
// filled up and space came back), it stops taking requests and exits with
// EXIT_RESTART, for the supervisor to start it again.
import { loadConfig, type Config } from './config.js';
import { createApp, type App } from './app.js';
import { isConnectionLost } from './core/errors.js';
import { passwordNotice } from './notice-box.js';

/**
 * An error of the running process, in the structured log once the app is up (a start that
 * failed has no log yet: one plain line on stderr says why).
 */
function report(message: string) {
  if (app) app.deps.logError(message);
  else console.error(`[grc] ${message}`);
}

function oneLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/\s*\n\s*/g, ' ').trim();
}

// The job queue's worker (pg-boss 10) marks a job done or failed without awaiting it: when the
// database connection is lost at that moment, the rejection is unhandled and would end the
// process. A lost connection is an outage to ride out (the job expires and is retried, the
// pool reconnects), so it is logged; any other unhandled rejection still ends the process.
process.on('unhandledRejection', (reason) => {
  if (!isConnectionLost(reason)) throw reason;
  report(`lost the database connection in the background: ${oneLine(reason)}`);
});

/** EX_TEMPFAIL: a temporary condition; starting again is the cure (docs/operations.md). */
const EXIT_RESTART = 75;

let config: Config;
let app: App;
let closing = false;
const started = Date.now();
try {
  config = loadConfig();
  app = await createApp(config, { onRestartNeeded: restart });
  await app.server.app.listen({ port: config.PORT, host: config.HOST });
} catch (err) {
  console.error(`[grc] start failed: ${oneLine(err)}`);
  process.exit(1);
}
if (app.generatedAdminPassword) {
  // Printed once, on the start that created the administrator.
  console.log(passwordNotice(config.ADMIN_EMAIL, app.generatedAdminPassword));
}
app.deps.log(`ready on http://localhost:${config.PORT} (${app.deps.db.kind}) in ${Date.now() - started} ms`);

/**
 * Stops taking requests, lets running ones finish (5 s at most) and exits with EXIT_RESTART.
 * The embedded database is left as a crash would leave it, not closed: closing writes to the
 * files its failed write left behind, where a new start replays its log and carries on.
 */
function restart(reason: string) {
  if (closing) return;
  closing = true;
  report(`restart needed: ${reason}; exiting with ${EXIT_RESTART} for the supervisor to start it again`);
  setTimeout(() => process.exit(EXIT_RESTART), 6000).unref();
  void app.server.close({ requestsTimeoutMs: 5000 }).finally(() => process.exit(EXIT_RESTART));
}

function stop(sig: string, drainMs: number) {
  if (closing) return;
  closing = true;
  const timeoutMs = config.SHUTDOWN_TIMEOUT_SECONDS * 1000;
  // Bounded whatever happens below (a hung query, a client that never finishes).
  setTimeout(() => {
    report(`shutdown took over ${config.SHUTDOWN_TIMEOUT_SECONDS} s; exiting now`);
    process.exit(1);
  }, timeoutMs).unref();
  app.deps.log(`${sig}: shutting down`);
  app
    .shutdown({ drainMs, timeoutMs: timeoutMs - 500 })
    .then(() => process.exit(0))
    .catch((e) => {
      report(`shutdown failed: ${oneLine(e)}`);
      process.exit(1);
    });
}
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  // Ctrl-C in a terminal needs no load balancer to notice.
  process.on(sig, () => stop(sig, sig === 'SIGTERM' ? config.SHUTDOWN_DRAIN_SECONDS * 1000 : 0));
}
