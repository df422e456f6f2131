import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import griffel from '@griffel/vite-plugin';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const apiTarget = process.env.API_URL ?? 'http://127.0.0.1:3000';

/**
 * `import { Alert24Regular } from '@fluentui/react-icons'` made an import of a
 * module holding that one icon. The package's index gathers its icons into ~60
 * modules of hundreds each (and its per-name modules, svg/alert, hold every size
 * of a name), and a module cannot be split between chunks: every icon any screen
 * used from a module the first load needed came with it (112 icons, before this
 * plugin, in the dashboard's first load, most of them for the upload, users, simulation
 * ... screens). Each icon's module is its line of the package's per-name module,
 * with that module's imports. Names that are not icons (bundleIcon ...), or not
 * found there, stay imported from the index. For the build only: the dev server
 * prebundles the package whole either way.
 */
function iconModules(): Plugin {
  const require = createRequire(import.meta.url);
  // The package's ES modules (require.resolve finds its CommonJS build, lib-cjs/index.cjs).
  const atomsDir = path.resolve(path.dirname(require.resolve('@fluentui/react-icons')), '../lib/atoms/svg');
  const PREFIX = 'fluent-icon:';
  const linesOf = new Map<string, Map<string, string>>();
  /** The icon's definition (one line of its per-name module) with that module's imports, or undefined. */
  const iconSource = (name: string): string | undefined => {
    const stem = /^(.*?)(\d+)?(Regular|Filled|Color|Light)$/.exec(name)?.[1];
    if (!stem) return undefined;
    const file = path.join(
      atomsDir,
      `${stem
        .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
        .replace(/([A-Z])([A-Z][a-z])/g, '$1-$2')
        .toLowerCase()}.js`,
    );
    let lines = linesOf.get(file);
    if (!lines) {
      lines = new Map();
      if (fs.existsSync(file)) {
        const text = fs.readFileSync(file, 'utf8');
        const imports = [...text.matchAll(/^import .* from '(\.[^']+)';$/gm)]
          .map((m) => m[0].replace(m[1]!, JSON.stringify(path.resolve(atomsDir, m[1]!)).slice(1, -1)))
          .join('\n');
        for (const m of text.matchAll(/^export const (\w+) = .*$/gm)) lines.set(m[1]!, `${imports}\n${m[0]}\n`);
      }
      linesOf.set(file, lines);
    }
    return lines.get(name);
  };
  return {
    name: 'fluent-icon-modules',
    apply: 'build',
    enforce: 'pre',
    resolveId(id) {
      return id.startsWith(PREFIX) ? `\0${id}` : null;
    },
    load(id) {
      return id.startsWith(`\0${PREFIX}`) ? iconSource(id.slice(PREFIX.length + 1)) : null;
    },
    transform(code, id) {
      if (id.startsWith('\0') || id.includes('/@fluentui/react-icons/') || !code.includes('@fluentui/react-icons')) return null;
      let changed = false;
      const out = code.replace(/\bimport\s*\{([^}]*)\}\s*from\s*(['"])@fluentui\/react-icons\2;?/g, (whole, list: string) => {
        const rest: string[] = [];
        const icons: string[] = [];
        for (const spec of list
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean)) {
          const name = /^(\w+)/.exec(spec)![1]!;
          if (name !== 'type' && iconSource(name)) icons.push(`import { ${spec} } from '${PREFIX}${name}';`);
          else rest.push(spec);
        }
        if (icons.length === 0) return whole;
        changed = true;
        return [...icons, ...(rest.length ? [`import { ${rest.join(', ')} } from '@fluentui/react-icons';`] : [])].join('\n');
      });
      return changed ? { code: out, map: null } : null;
    },
  };
}

/**
 * Each JavaScript chunk starts with V8's per-file compile hint, `//# allFunctionsCalledOnLoad`
 * (Chrome 136 on; other browsers read a comment): the engine compiles the file's functions
 * while it streams the download, on a background thread, instead of on the main thread the
 * first time each one runs. Most of a first-load chunk's functions run in the first render,
 * and that lazy compiling was most of the entry's module evaluation, the longest task of a
 * signed-in first load (docs/performance.md, 'Why it is fast'). Added to the written files
 * (the minifier keeps no comments), before build-web.mjs compresses them; the chunks'
 * names (hashes) stay those of their code.
 */
function compileHints(): Plugin {
  return {
    name: 'v8-compile-hints',
    apply: 'build',
    enforce: 'post',
    // On the written files: Vite's own generateBundle puts the entry's preload list
    // (`__vite__mapDeps`) in front of its code, whatever the plugins' order.
    writeBundle(options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        const file = path.join(options.dir!, chunk.fileName);
        fs.writeFileSync(file, `//# allFunctionsCalledOnLoad\n${fs.readFileSync(file, 'utf8')}`);
      }
    },
  };
}

export default defineConfig({
  root: webRoot,
  plugins: [
    iconModules(),
    react({
      // Compiles `graphql` tagged templates into imports of the Relay artifacts.
      babel: { plugins: ['relay'] },
    }),
    compileHints(),
    // Griffel's ahead-of-time compilation of the app's makeStyles/makeResetStyles
    // (wyw-in-js evaluates each style object at build time): they become
    // `__styles(classes, cssRules)` calls, as Fluent's own components ship, so the
    // browser no longer turns style objects into CSS (stylis, rtl-css-js, hashing)
    // on the first render; the rules are still inserted by Griffel at runtime, in
    // the same buckets and order (every element's computed style was compared with
    // the runtime build's on three screens at 412 and 1280 px: the same). The modules the
    // styles import (tokens, shared style objects) are TypeScript: hence the preset.
    // For the build only: the dev server keeps runtime makeStyles.
    {
      ...griffel({
        include: [/\/web\/src\/.*\.tsx?$/],
        babelOptions: { presets: [['@babel/preset-typescript', { allExtensions: true, isTSX: true }]] },
      }),
      apply: 'build',
    },
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
        // Chunks under 300 B (a Fluent text component, a hook) are merged into a
        // chunk loaded with them wherever that runs no other code's side effects:
        // alone they compress badly and each is one more request. Measured
        // with the icons in modules of their own (iconModules): 0, 300,
        // 600, 1000 and 2000; 300 gave the smallest entry and sign-in loads, the
        // dashboard's within 0.2 KB of the smallest; from 2000 on, code the first
        // load does not run is pulled into it.
        experimentalMinChunkSize: 300,
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
