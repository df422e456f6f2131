// The embedded database (PGlite) must be opened by one process at a time: the
// server writes its pid to DATA_DIR/server.pid while it runs, and refuses to
// start, like backup and restore, while another live process holds it.
import fs from 'node:fs';
import path from 'node:path';

export function pidFile(dataDir: string): string {
  return path.join(dataDir, 'server.pid');
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid of a live process that holds DATA_DIR (not this one), or undefined. */
export function dataDirHolder(dataDir: string): number | undefined {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(pidFile(dataDir), 'utf8').trim());
  } catch {
    return undefined;
  }
  return Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid) ? pid : undefined;
}

/** Takes DATA_DIR for this process; throws when another live process has it. Returns the release function. */
export function lockDataDir(dataDir: string): () => void {
  const holder = dataDirHolder(dataDir);
  if (holder) throw new Error(`DATA_DIR ${dataDir} is in use by process ${holder}; the embedded database can be opened by one process only`);
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(pidFile(dataDir), String(process.pid));
  return () => {
    try {
      if (fs.readFileSync(pidFile(dataDir), 'utf8').trim() === String(process.pid)) fs.rmSync(pidFile(dataDir));
    } catch {
      /* gone already */
    }
  };
}
