// Starts the server: `npm start` (or `tsx api/src/main.ts`).
import { loadConfig } from './config.js';
import { createApp } from './app.js';

const config = loadConfig();
const started = Date.now();
const app = await createApp(config);
if (app.generatedAdminPassword) {
  // Printed once, on the start that created the administrator.
  console.log(
    `\n  First administrator: ${config.ADMIN_EMAIL}\n  Initial password:    ${app.generatedAdminPassword}\n  (you will be asked to change it at first sign-in)\n`,
  );
}
await app.server.app.listen({ port: config.PORT, host: config.HOST });
console.log(`[grc] ready on http://localhost:${config.PORT} (${app.deps.db.kind}) in ${Date.now() - started} ms`);

let closing = false;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, async () => {
    if (closing) return;
    closing = true;
    await app.close().catch((e) => console.error(e));
    process.exit(0);
  });
}
