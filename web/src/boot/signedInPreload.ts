// A returning, signed-in visitor's first load, started before the entry has run. Built by
// scripts/build-web.mjs into a small classic script (`signed-in-preload-<hash>.js`),
// loaded `defer` before the entry: the entry discovers the shell's and the screen's
// chunks only once it has been downloaded and run. When a stored user exists (SPEC §3's
// internal_user, as web/src/App.tsx decides) this adds `<link rel="modulepreload">` for
// the shell's chunks, on `/` the dashboard's, and on a wide screen the sidebar's, so they
// download beside the entry. It also sends the session query (the signed-in viewer, a
// persisted operation) at once, so its answer is there when the entry has run
// (relay/network.ts takes it instead of asking again), and with the viewer's role it
// preloads the Risk Review screen the role gets on /risk-review and, for an administrator
// on the queue's tab, sends the queue's first page (riskQueueAddress.ts). A visitor with no stored
// user asks for nothing more.
import { putEarlyAnswer, type EarlyAnswer } from './earlyQueries';
import { riskQueueVariablesForAddress } from '../routes/risk-review/riskQueueAddress';

/** The chunk lists, from Vite's manifest (written in by the build). */
declare const SIGNED_IN_PRELOAD_LISTS: { shell: string[]; home: string[]; wide: string[]; risksAdmin: string[]; risksReviewer: string[] };
/** SessionProviderQuery's persisted id (from its Relay artifact, written in by the build). */
declare const SESSION_QUERY_ID: string;
/** RiskQueueQuery's persisted id (written in by the build). */
declare const RISK_QUEUE_QUERY_ID: string;

/** The same request relay/network.ts sends for an operation. */
function send(id: string, operationName: string, variables: unknown): Promise<EarlyAnswer> {
  const answer = fetch('/graphql', {
    method: 'POST',
    credentials: 'include',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ documentId: id, operationName, variables }),
  }).then(async (r) => ({ status: r.status, statusText: r.statusText, text: await r.text() }));
  putEarlyAnswer(id, variables, answer);
  return answer;
}

function storedUser(): boolean {
  try {
    const u = JSON.parse(localStorage.getItem('internal_user') || 'null') as { id?: unknown; email?: unknown } | null;
    return u != null && typeof u === 'object' && typeof u.id === 'string' && typeof u.email === 'string';
  } catch {
    return false;
  }
}

const seen = new Set<string>();
function preload(files: string[]) {
  for (const file of files) {
    if (seen.has(file)) continue;
    seen.add(file);
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = `/assets/${file}`;
    document.head.appendChild(link);
  }
}

if (storedUser()) {
  const lists = SIGNED_IN_PRELOAD_LISTS;
  const session = send(SESSION_QUERY_ID, 'SessionProviderQuery', {});
  let want = lists.shell;
  if (location.pathname === '/') want = want.concat(lists.home);
  if (!matchMedia('(max-width: 767px)').matches) want = want.concat(lists.wide);
  preload(want);
  if (location.pathname === '/risk-review' || location.pathname === '/risks') {
    // App.tsx's prepareRisks: reviewers get My Assigned Risks, everyone else the administrators' tabs.
    session
      .then((a) => {
        const role = (JSON.parse(a.text) as { data?: { viewer?: { role?: unknown } | null } }).data?.viewer?.role;
        if (typeof role !== 'string') return;
        preload(role === 'REVIEWER' ? lists.risksReviewer : lists.risksAdmin);
        // The queue's first page, as riskReviewLoader asks for it: sent here, before the entry has run.
        const queue = role === 'REVIEWER' ? null : riskQueueVariablesForAddress(new URLSearchParams(location.search));
        if (queue) send(RISK_QUEUE_QUERY_ID, 'RiskQueueQuery', queue).catch(() => {});
      })
      .catch(() => {
        // The entry asks again (relay/network.ts) and loads the screen itself.
      });
  }
}
