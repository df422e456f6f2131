import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const apiTarget = process.env.API_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  root: webRoot,
  plugins: [
    react({
      // Compiles `graphql` tagged templates into imports of the Relay artifacts.
      babel: { plugins: ['relay'] },
    }),
  ],
  resolve: {
    // The hooks entry of react-relay: the same functions, without the legacy
    // containers (QueryRenderer, createFragmentContainer ...) the app never uses.
    alias: [{ find: /^react-relay$/, replacement: 'react-relay/hooks' }],
  },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    // Read by scripts/build-web.mjs (the signed-in path's modulepreload list), then removed.
    manifest: true,
    rollupOptions: {
      output: {
        // Chunks under 1 kB (a Fluent text component, a hook) are merged into a
        // chunk loaded with them wherever that loads no other code's side
        // effects: alone they compress badly and each is one more request.
        // 1000 gave the smallest first loads (session 13: 500, 800, 1200, 1500,
        // 2000, 5000 and 20000 measured; larger values pull code into them).
        experimentalMinChunkSize: 1000,
        // React, the router and Relay change less often than the app: their own
        // long-cached chunk. Fluent stays with the code that uses it, so a screen's
        // components load with the screen (a vendor chunk of Fluent would pull every
        // screen's components into the first load).
        manualChunks(id) {
          if (/node_modules\/(react|react-dom|scheduler|react-router|relay-runtime|react-relay|invariant|fbjs)\//.test(id)) return 'vendor';
          return undefined;
        },
      },
    },
  },
  server: {
    proxy: {
      '/graphql': { target: apiTarget, ws: true, changeOrigin: false },
      '/api': { target: apiTarget, changeOrigin: false },
    },
  },
  preview: {
    proxy: {
      '/graphql': { target: apiTarget, ws: true, changeOrigin: false },
      '/api': { target: apiTarget, changeOrigin: false },
    },
  },
});
