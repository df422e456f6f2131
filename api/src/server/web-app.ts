// The built web app: its hashed files, the page with SPA fallback for client-side routes (each
// answer with its CSP nonce and, signed in, the boot frame), and the JSON 404 for everything else.
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import type { AppDeps } from '../context.js';
import { errorBody } from '../core/errors.js';
import { resolveSession, sessionToken } from '../auth/sessions.js';
import { getActivePeriod } from '../services/review/periods.js';
import { cspStyleNonce } from '../web-security.js';
import { frameNeedsViewer, pageWithBootFrame, readWebPage, REVALIDATE_PAGE, webAssetCaching, type FrameViewer, type WebPage } from '../web-delivery.js';

export interface WebAppOptions {
  deps: AppDeps;
  /** Filled with the routes of the web app's files, for the request-duration metric's label. */
  webFileRoutes: Set<string>;
}

const isApi = (url: string) => url.startsWith('/api/') || url.startsWith('/graphql');

/** The page of the web app for a client-side route (the SPA fallback), with this response's nonce. */
async function sendPage(deps: AppDeps, req: FastifyRequest, reply: FastifyReply, page: WebPage) {
  const [pathname = '/', query = ''] = req.url.split('?');
  const token = sessionToken(req.cookies as Record<string, string>);
  // A request with a session cookie gets the signed-in page's frame in #root (web-delivery.ts); on
  // Risk Review the session says which screen and whether the period notice shows.
  let viewer: FrameViewer | undefined;
  if (token != null && frameNeedsViewer(page, pathname, new URLSearchParams(query))) {
    const session = await resolveSession(deps.prisma, token, deps.config.SESSION_TTL_HOURS).catch(() => null);
    const user = session?.user;
    viewer = user && !user.passwordResetRequired ? { reviewer: user.role === 'reviewer', periodActive: (await getActivePeriod(deps.prisma)) != null } : null;
  }
  const html = pageWithBootFrame(page, req.url, req.cookies, token != null, viewer);
  return (
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', REVALIDATE_PAGE)
      .header('vary', 'cookie')
      // The nonce of this response's CSP, for the <style> elements Fluent UI inserts (main.tsx reads it).
      .send(html.replaceAll('__CSP_NONCE__', cspStyleNonce(reply)))
  );
}

export const webApp = fp<WebAppOptions>(
  async (app, { deps, webFileRoutes }) => {
    const webDist = deps.config.webDist;
    const hasWeb = fs.existsSync(path.join(webDist, 'index.html'));
    if (hasWeb) {
      let addingWebFiles = true;
      app.addHook('onRoute', (route) => {
        if (addingWebFiles) webFileRoutes.add(route.url);
      });
      // index.html is never served as a file: it carries the response's CSP nonce (below).
      await app.register(fastifyStatic, {
        root: webDist,
        wildcard: false,
        index: false,
        allowedPath: (p) => p !== '/index.html' && p !== '/boot-frames.json',
        ...webAssetCaching(webDist),
      });
      addingWebFiles = false;
    }
    // index.html and its frames: read once (a new build is a new process).
    const webPage = hasWeb ? readWebPage(webDist) : null;
    if (webPage) {
      // Every other GET is a client-side route: a route of its own (not the not-found handler), so the
      // page goes through compression like any answer. Unknown API paths still get the JSON 404.
      app.get('/*', { config: { access: 'public' } }, async (req, reply) => (isApi(req.url) ? reply.callNotFound() : sendPage(deps, req, reply, webPage)));
    }
    app.setNotFoundHandler(async (req, reply) => {
      // /index.html asked for by name (the static plugin refuses to serve it as a file).
      if (!isApi(req.url) && webPage && req.method === 'GET') return sendPage(deps, req, reply, webPage);
      return reply.status(404).send(errorBody(404, `Not found: ${req.method} ${req.url.split('?')[0]}`));
    });
  },
  { name: 'web-app' },
);
