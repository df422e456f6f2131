// Every way a decision comes to be is in the audit trail with its origin: a
// reviewer's save ('user'), a save by filter ('by-filter'), a replacing
// upload carrying decisions to its equal rows ('carry-over'), the period's
// default at close ('default-at-close') and a new period carrying valid
// mitigations ('mitigation-carried').
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClient, type TestServer, type UserClient } from '../helpers/server.js';
import { loadExport } from '../helpers/upload.js';
import { HEADERS, generateRows } from '../../../scripts/gen-data.js';

let server: TestServer;
let admin: Client;
let a: UserClient;

// Three rows of three users (the first column is the user id).
const ROWS = [...generateRows(3, 41)].map((r, i) => [`U${i + 1}`, ...r.slice(1)]);
const CSV = [HEADERS, ...ROWS].map((r) => r.map((v) => (/[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v)).join(',')).join('\r\n') + '\r\n';

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
  a = await userClient(server, admin);
  await loadExport(server, admin, CSV);
  for (const userId of ['U1', 'U2', 'U3']) {
    expect((await admin.post('/api/assignment-criteria', { reviewerId: a.user.id, criteriaType: 'user_id', criteriaValue: userId })).status).toBe(201);
  }
});
afterAll(async () => server?.close());

const events = (action: string, where: Record<string, unknown> = {}) =>
  server.app.deps.prisma.auditEvent.findMany({ where: { action, ...where }, orderBy: { id: 'asc' } });
const rowOf = async (userId: string) => ((await a.client.get('/api/assigned-risks')).body.risks as any[]).find((r) => r.userId === userId);

describe('the origin of a decision in the audit trail', () => {
  it('names each way a decision was written', async () => {
    const period = await admin.post('/api/review-periods', { name: 'Origins', defaultDecisionAtClose: 'retain' });
    expect(period.status).toBe(201);

    const mitigated = await rowOf('U1');
    const saved = await a.client.post('/api/reviews/decision', {
      riskDefinitionId: mitigated.id,
      decision: 'retain_mitigated',
      mitigationControl: 'MC-ORIGIN',
      mitigationExpiresAt: '2099-12-31T00:00:00Z',
      comments: 'Reviewed monthly',
    });
    expect(saved.body).toEqual({ success: true, saved: 1 });
    const [own] = await events('decision.changed', { entityId: String(mitigated.id) });
    expect(own?.after).toMatchObject({ decision: 'retain_mitigated', origin: 'user' });

    expect((await a.client.post('/api/reviews/decisions/by-filter', { filter: { userId: 'U2' }, decision: 'remove', comments: 'Left' })).body).toEqual({
      count: 1,
    });
    const [byFilter] = await events('decision.changed', { entityId: String((await rowOf('U2')).id) });
    expect(byFilter?.after).toMatchObject({ decision: 'remove', bulk: true, origin: 'by-filter' });

    // The same export again, replacing: both decisions move to its equal rows.
    const upload = await loadExport(server, admin, CSV, { name: 'again.csv' });
    expect((await rowOf('U1')).id).not.toBe(mitigated.id);
    const [carried] = await events('decisions.carried_over', { entityId: upload });
    expect(carried).toMatchObject({ entityType: 'Upload', periodId: period.body.id, after: { count: 2, origin: 'carry-over' } });

    // U3's row is still pending: the default at close decides it.
    expect((await admin.put(`/api/review-periods/${period.body.id}/close`)).status).toBe(200);
    const [applied] = await events('period.default_applied', { periodId: period.body.id });
    expect(applied?.after).toMatchObject({ defaultDecisionAtClose: 'retain', decisions: 1, origin: 'default-at-close' });

    const next = await admin.post('/api/review-periods', { name: 'Origins, next' });
    expect(next.status).toBe(201);
    const [mitigations] = await events('decisions.mitigations_carried', { periodId: next.body.id });
    expect(mitigations?.after).toMatchObject({ fromPeriodId: period.body.id, count: 1, origin: 'mitigation-carried' });
  });
});
