// Small helpers shared by the command-line scripts (gen-data, the benchmarks).

/** The value after `--name` on the command line, or `dflt`. */
export function arg(name: string, dflt: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && i + 1 < process.argv.length ? process.argv[i + 1]! : dflt;
}

/** The p-th percentile of the figures (nearest rank), NaN for none. */
export function percentile(a: number[], p: number): number {
  const s = [...a].sort((x, y) => x - y);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : NaN;
}
