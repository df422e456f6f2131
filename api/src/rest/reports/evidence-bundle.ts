// REST: a period's signed evidence bundle (GET /api/reports/evidence-bundle?periodId=…&version=N,
// administrators; the latest version when version is left out) and the public key that
// verifies it (GET /.well-known/grc-evidence-key, without signing in: an auditor fetches it
// from the installation itself to check a bundle handed to them).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ValidationError } from '../../core/errors.js';
import type { AppDeps } from '../../context.js';
import { routeSchema, text, wholeNumber } from '../edge.js';
import { bundleForDownload, publicEvidenceKey } from '../../services/evidence/evidence-bundles.js';

const BundleQuery = z.object({
  periodId: text('periodId', 100).optional().describe('The review period (required)'),
  version: wholeNumber('version', 1, 1_000_000)
    .optional()
    .describe('The bundle version (1 for the first close, one more for each close after a reopen); the latest when left out'),
});

export function registerEvidenceBundleRoutes(app: FastifyInstance, deps: AppDeps) {
  app.get<{ Querystring: { periodId?: string; version?: number } }>(
    '/api/reports/evidence-bundle',
    {
      config: { access: 'admin' },
      schema: routeSchema({
        summary: "A review period's signed evidence bundle (verify it offline with `npx grc-verify bundle.zip`)",
        querystring: BundleQuery,
        replyDescription:
          'The ZIP: manifest.json, its Ed25519 signature manifest.sig, an RFC 3161 token manifest.tsr when a timestamp authority is configured, and the files the manifest lists. 409 while it is being written (within a minute of the close), 404 for an unknown period or version',
        replyHeaders: {
          'X-Bundle-Sha256': { description: 'SHA-256 (hex) of the ZIP as stored when it was written', schema: { type: 'string' } },
          'X-Manifest-Sha256': { description: 'SHA-256 (hex) of manifest.json inside it', schema: { type: 'string' } },
        },
        replyFiles: { 'application/zip': { schema: { type: 'string', format: 'binary', description: 'The bundle' } } },
      }),
    },
    async (req, reply) => {
      if (!req.query.periodId) throw new ValidationError('periodId is required', 'periodId');
      const { view, file, downloadName } = await bundleForDownload(req.ctx.caller!, req.query.periodId, req.query.version);
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="${downloadName}"`)
        .header('x-bundle-sha256', view.sha256 ?? '')
        .header('x-manifest-sha256', view.manifestSha256 ?? '')
        .send(file.read());
    },
  );
  app.get('/.well-known/grc-evidence-key', async (_req, reply) =>
    reply
      .header('content-type', 'application/x-pem-file')
      .header('cache-control', 'public, max-age=3600')
      .send(await publicEvidenceKey(deps)),
  );
}
