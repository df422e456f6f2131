// Live progress of what the engine runs in the background: an extract's load
// (its percent moves table by table) and an analysis run (one transaction: 0
// until it commits, then 100). The job publishes what the database says
// (so every instance's subscribers hear it, through the pub/sub's fan-out),
// and a subscriber is told where things stand first, then each change,
// ending after 'completed' or 'failed'.
import type { PrismaClient } from '../../generated/prisma/client.js';
import type { PubSub, PubSubEvents } from '../../pubsub.js';
import type { Caller } from '../caller.js';

export type AccessProgress = PubSubEvents['access:progress'][1];
export type AccessKind = AccessProgress['kind'];

const FIELDS = { id: true, status: true, progress: true, errorMessage: true } as const;

/** Where an extract or a run stands now, or null when there is none. */
export async function readProgress(prisma: PrismaClient, kind: AccessKind, id: string): Promise<AccessProgress | null> {
  const row =
    kind === 'extract'
      ? await prisma.accessExtract.findUnique({ where: { id }, select: FIELDS })
      : await prisma.accessAnalysisRun.findUnique({ where: { id }, select: FIELDS });
  return row ? { ...row, kind, status: row.status as AccessProgress['status'] } : null;
}

const same = (a: AccessProgress | null, b: AccessProgress | null) => a?.status === b?.status && a?.progress === b?.progress;

/**
 * Runs `work` (the job's load or run), publishing the progress the database
 * shows every `everyMs` while it runs (an extract's only: a run's is not
 * visible before it commits) and once more when it ends.
 */
export async function publishingProgress(
  deps: { prisma: PrismaClient; pubsub: PubSub },
  kind: AccessKind,
  id: string,
  work: () => Promise<void>,
  everyMs = 1000,
): Promise<void> {
  let last: AccessProgress | null = null;
  let reading = false;
  const publish = async () => {
    if (reading) return;
    reading = true;
    try {
      const now = await readProgress(deps.prisma, kind, id);
      if (now && !same(now, last)) deps.pubsub.publish('access:progress', id, now);
      last = now ?? last;
    } finally {
      reading = false;
    }
  };
  const timer = kind === 'extract' ? setInterval(() => void publish().catch(() => {}), everyMs) : undefined;
  try {
    await work();
  } finally {
    clearInterval(timer);
    while (reading) await new Promise((r) => setTimeout(r, 20));
    await publish();
  }
}

/** An extract's or run's progress as it stands, then as it moves, ending after completed or failed. */
export async function* progressStream(caller: Caller, kind: AccessKind, id: string): AsyncGenerator<AccessProgress> {
  const { prisma, pubsub } = caller.deps;
  const events = pubsub.subscribe('access:progress', id)[Symbol.asyncIterator]();
  // Listening starts before the read, so an event published after it cannot be missed.
  const first = events.next();
  first.catch(() => {});
  try {
    let last = await readProgress(prisma, kind, id);
    if (!last) return;
    yield last;
    let next = first;
    while (last.status === 'processing') {
      const n = await next;
      if (n.done) return;
      // An event older than the read (published before it) is skipped.
      if (n.value.status !== 'processing' || n.value.progress > last.progress) {
        last = n.value;
        yield last;
      }
      if (last.status === 'processing') next = events.next();
    }
  } finally {
    await events.return?.(undefined);
  }
}
