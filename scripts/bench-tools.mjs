// The browser-benchmark tools (Lighthouse, and the Chrome DevTools clients it
// brings) are not part of `npm ci`: they are large and only the web
// benchmarks use them. `npm run bench:web:install` adds them without changing
// package.json; a benchmark started without them says so and exits.
export const BENCH_TOOLS = ['lighthouse@12.8.2', 'puppeteer-core@24.43.1', 'chrome-launcher@1.2.1'];

/** Imports a benchmark tool, or exits naming the command that installs it. */
export async function benchTool(name) {
  try {
    return await import(name);
  } catch (e) {
    if (e?.code !== 'ERR_MODULE_NOT_FOUND') throw e;
    console.error(`${name} is not installed (the web benchmarks' tools are an optional install): run \`npm run bench:web:install\`, then this again.`);
    process.exit(2);
  }
}
