// How responses travel, so the first page loads fast: text answers (API JSON,
// GraphQL, HTML, the web app's JS and CSS, CSV exports) are compressed with
// brotli or gzip when the client accepts it; streams go through the
// compressor as streams, so a CSV export still starts at once. Server-sent
// events are left alone (each event must reach the page when it is sent);
// graphql-ws frames are WebSocket traffic, outside HTTP replies. Request
// bodies are not decompressed (uploads and JSON arrive as sent, bounded as
// before). The web build's hashed files under /assets/ never change under
// their name: browsers keep them a year without asking again; anything else
// from the build, index.html and the SPA fallback are asked for every time.
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyCompress from '@fastify/compress';

export const IMMUTABLE_ASSET = 'public, max-age=31536000, immutable';
export const REVALIDATE_PAGE = 'no-cache';

/** Text types worth compressing; text/event-stream (SSE) excluded. */
const COMPRESSIBLE = /^text\/(?!event-stream)|(?:\+|\/)json(?:;|$)|(?:\+|\/)(?:javascript|ecmascript)(?:;|$)|(?:\+|\/)xml(?:;|$)|^image\/svg\+xml/u;

/** Registers compression; call before the routes are declared (it attaches to each route as it is added). */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    global: true,
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: 1024,
    customTypes: COMPRESSIBLE,
  });
}

/** Options for @fastify/static serving the web build in `root`: the Cache-Control of each file. */
export function webAssetCaching(root: string) {
  return {
    // The build's .br / .gz copies of its assets (scripts/build-web.mjs), when the browser accepts them.
    preCompressed: true,
    cacheControl: false,
    setHeaders(reply: FastifyReply, filePath: string) {
      const hashed = path.relative(root, filePath).split(path.sep)[0] === 'assets';
      reply.header('cache-control', hashed ? IMMUTABLE_ASSET : REVALIDATE_PAGE);
    },
  } as const;
}

/** The build's `boot-frames.json` (scripts/build-web.mjs from web/src/boot/bootFrame.ts). */
type BootFrames = {
  unframed: string[];
  collapsedCookie: string;
  /** Paths whose frame depends on who is signed in: frames keyed `<path>|<role>-<period>` (see frameKeyFor). */
  byViewer?: string[];
  /** On those paths, the `tab` values whose screen is not framed by viewer (Risk Review's other tabs). */
  byViewerExceptTabs?: string[];
  frames: Record<string, [expanded: string, collapsed: string]>;
};

/** The built index.html and its frames, read once when the server starts (a new build means a new process). */
export type WebPage = { html: string; boot: BootFrames | null };

/** Reads the build's page and frames (a missing or unreadable frames file: the page as built for everyone). */
export function readWebPage(webDist: string): WebPage {
  const html = fs.readFileSync(path.join(webDist, 'index.html'), 'utf8');
  let boot: BootFrames | null = null;
  try {
    boot = JSON.parse(fs.readFileSync(path.join(webDist, 'boot-frames.json'), 'utf8')) as BootFrames;
  } catch {
    boot = null;
  }
  return { html, boot };
}

/** What the server knows of a signed-in viewer that changes a page's frame: null when the cookie is not a valid session. */
export type FrameViewer = { reviewer: boolean; periodActive: boolean } | null;

/** True when this address's frame depends on the viewer (the server then looks the session up first). */
export function frameNeedsViewer(page: WebPage, pathname: string, search: URLSearchParams): boolean {
  const tab = search.get('tab');
  return (page.boot?.byViewer?.includes(pathname) ?? false) && !(tab != null && page.boot?.byViewerExceptTabs?.includes(tab));
}

/** The frame's key for a viewer on a path whose frame depends on the viewer (bootFrame.ts writes the same keys). */
function frameKeyFor(pathname: string, viewer: NonNullable<FrameViewer>): string {
  return `${pathname}|${viewer.reviewer ? 'reviewer' : 'admin'}-${viewer.periodActive ? 'open' : 'closed'}`;
}

/**
 * index.html for one response, so the first page paints fast: when the request carries a
 * session cookie (a returning, likely signed-in visitor), the signed-in page's frame (top
 * bar, the page's heading) goes into #root, so a phone on slow 4G paints it before the
 * app's script has arrived; React's first render shows the same markup (web/src/shell/BootFrame.tsx).
 * Without a cookie (the landing and sign-in pages), and on the paths outside the signed-in
 * layout, the page is as built. The sidebar is drawn as AppShell's cookie says. On a path
 * whose page depends on the viewer (Risk Review: the role picks the screen, the active period
 * the notice), `viewer` is what the session says: null (a stale cookie) gives the page as built.
 */
export function pageWithBootFrame(page: WebPage, url: string, cookies: Record<string, string | undefined>, hasSession: boolean, viewer?: FrameViewer): string {
  const { html, boot } = page;
  if (!hasSession || boot == null) return html;
  const [pathname = '/', query = ''] = url.split('?');
  if (boot.unframed.includes(pathname)) return html;
  let frames: [string, string] | undefined;
  if (frameNeedsViewer(page, pathname, new URLSearchParams(query))) {
    if (viewer === null) return html;
    frames = viewer ? boot.frames[frameKeyFor(pathname, viewer)] : undefined;
  }
  const frame = (frames ?? (viewer === undefined ? boot.frames[pathname] : undefined) ?? boot.frames['*'])?.[cookies[boot.collapsedCookie] === 'true' ? 1 : 0];
  return frame ? html.replace('<div id="root"></div>', `<div id="root">${frame}</div>`) : html;
}
