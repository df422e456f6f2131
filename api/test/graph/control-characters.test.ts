// Control characters and terminal escapes: refused in typed text (REST and
// GraphQL, a 400 / BAD_USER_INPUT naming the field, nothing written), line
// breaks refused in single-line fields, and removed from every export of data
// that came from an uploaded file (with formulas still neutralised).
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClient, type TestServer, type UserClient } from '../helpers/server.js';
import { loadExport } from '../helpers/upload.js';
import { parseCsv } from '../helpers/csv.js';
import { CONTROL_CHARACTERS_REFUSED, neutralizeText } from '../../src/core/validation.js';

let server: TestServer;
let admin: Client;
let reviewer: UserClient;

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
  reviewer = await userClient(server, admin);
}, 120_000);
afterAll(async () => {
  await server?.close();
});

/** One of each kind the rule refuses. */
const HOSTILE = {
  'an ANSI escape (clear screen)': 'Q1\u001b[2J\u001b[31m red',
  'a terminal title escape ending in BEL': 'x\u001b]0;owned\u0007',
  'a bare BEL': 'ding\u0007',
  'a right-to-left override': 'invoice\u202etxt.exe',
  'a bidirectional isolate': 'a\u2066b\u2069',
  'a byte order mark': '\ufeffname',
  'a C1 control (8-bit CSI)': 'a\u009b2Jb',
  DEL: 'a\u007fb',
  'a vertical tab': 'a\u000bb',
};
const refusal = (field: string) => `${field} ${CONTROL_CHARACTERS_REFUSED}`;

describe('typed text through REST', () => {
  it('is refused with a 400 naming the field, for every kind of user-entered field', async () => {
    const me = reviewer.user.id;
    const fields: [Client, string, string, (s: string) => unknown, string][] = [
      [admin, 'POST', '/api/users', (s) => ({ email: 'new.user@example.com', firstName: s, role: 'reviewer' }), 'firstName'],
      [admin, 'PUT', `/api/users/${me}`, (s) => ({ lastName: s }), 'lastName'],
      [admin, 'POST', '/api/notifications', (s) => ({ title: s, message: 'm', type: 'info', targetType: 'all' }), 'title'],
      [admin, 'POST', '/api/notifications', (s) => ({ title: 'Hello', message: s, type: 'info', targetType: 'all' }), 'message'],
      [admin, 'POST', '/api/review-periods', (s) => ({ name: s }), 'name'],
      [admin, 'POST', '/api/review-periods', (s) => ({ name: 'Q1', description: s }), 'description'],
      [admin, 'POST', '/api/tokens', (s) => ({ name: s }), 'name'],
      [admin, 'POST', '/api/assignment-criteria', (s) => ({ name: s, reviewerId: me, criteriaType: 'system', criteriaValue: 'SAP ERP' }), 'name'],
      [admin, 'POST', '/api/admin/settings', (s) => ({ settingKey: 'review.requireRemovalComment', settingValue: s }), 'settingValue'],
      [reviewer.client, 'POST', '/api/reviews/decision', (s) => ({ riskDefinitionId: 1, decision: 'remove', comments: s }), 'comments'],
      [
        reviewer.client,
        'POST',
        '/api/reviews/decisions',
        (s) => ({ decisions: [{ riskDefinitionId: 1, decision: 'remove', comments: s }] }),
        'decisions[0].comments',
      ],
      [admin, 'POST', '/api/reassignments', (s) => ({ toReviewerId: me, riskDefinitionIds: [1], note: s }), 'note'],
      [admin, 'PUT', `/api/submissions/${me}/return`, (s) => ({ comment: s }), 'comment'],
    ];
    for (const [client, method, path, body, field] of fields) {
      for (const [kind, s] of Object.entries(HOSTILE)) {
        const r = await client.request(method, path, body(s));
        expect(r.status, `${method} ${path} ${field} with ${kind}`).toBe(400);
        expect(r.body.message, `${method} ${path} ${field} with ${kind}`).toBe(refusal(field));
      }
    }
    // Nothing was written.
    const prisma = server.app.deps.prisma;
    expect(await prisma.user.count({ where: { email: 'new.user@example.com' } })).toBe(0);
    expect(await prisma.notification.count()).toBe(0);
    expect(await prisma.reviewPeriod.count()).toBe(0);
    expect(await prisma.apiToken.count()).toBe(0);
    expect(await prisma.assignmentCriteria.count()).toBe(0);
  });

  it('single-line fields refuse line breaks and tabs; multi-line ones keep them; a password may hold anything', async () => {
    const oneLine: [string, string, (s: string) => unknown, string][] = [
      [
        'POST',
        '/api/notifications',
        (s) => ({ title: s, message: 'm', type: 'info', targetType: 'all' }),
        'Title must be on one line (no line breaks or tabs)',
      ],
      ['POST', '/api/review-periods', (s) => ({ name: s }), 'Period name must be on one line (no line breaks or tabs)'],
      ['POST', '/api/tokens', (s) => ({ name: s }), 'Token name must be on one line (no line breaks or tabs)'],
      [
        'POST',
        '/api/users',
        (s) => ({ email: 'two.lines@example.com', firstName: s, role: 'reviewer' }),
        'First name must be on one line (no line breaks or tabs)',
      ],
    ];
    for (const [method, path, body, message] of oneLine) {
      for (const s of ['first\nsecond', 'first\r\nsecond', 'a\tb']) {
        const r = await admin.request(method, path, body(s));
        expect(r.status, `${path} ${JSON.stringify(s)}`).toBe(400);
        expect(r.body.message).toBe(message);
      }
    }
    const multi = await admin.post('/api/notifications', { title: 'Two lines', message: 'first line\n\tsecond line', type: 'info', targetType: 'all' });
    expect(multi.status).toBe(201);
    expect(multi.body.message).toBe('first line\n\tsecond line');
    // Non-Latin text and emoji are text, not controls.
    const intl = await admin.post('/api/review-periods', { name: 'Révision Q1 — 日本 ✅', description: 'שלום עולם' });
    expect(intl.status).toBe(201);

    const u = await userClient(server, admin);
    const odd = 'pass\u202eword\u001b!';
    expect((await u.client.put('/api/internal/change-password', { currentPassword: u.password, newPassword: odd })).status).toBe(200);
    expect((await new Client(server.url).login(u.email, odd)).status).toBe(200);
  });
});

describe('typed text through GraphQL', () => {
  const SEND = `mutation($input: SendNotificationInput!) { sendNotification(input: $input) { __typename } }`;

  it('variables and literal arguments are refused as BAD_USER_INPUT naming the field, before anything runs', async () => {
    for (const [kind, s] of Object.entries(HOSTILE)) {
      const v = await admin.gql(SEND, { input: { title: s, message: 'm', targetType: 'ALL', type: 'INFO' } });
      expect(v.body.errors?.[0]?.message, kind).toBe(`Variable ${refusal('input.title')}`);
      expect(v.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.title' });
      const lit = await admin.gql(`mutation { createReviewPeriod(input: { name: ${JSON.stringify(s)} }) { __typename } }`);
      expect(lit.body.errors?.[0]?.message, kind).toBe(`Argument ${refusal('input.name')}`);
      expect(lit.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.name' });
      const token = await admin.gql(`mutation($name: String!) { createApiToken(name: $name) { __typename } }`, { name: s });
      expect(token.body.errors?.[0]?.message, kind).toBe(`Variable ${refusal('name')}`);
      const user = await admin.gql(`mutation($input: CreateUserInput!) { createUser(input: $input) { __typename } }`, {
        input: { email: 'gql.user@example.com', firstName: 'A', lastName: s, role: 'REVIEWER' },
      });
      expect(user.body.errors?.[0]?.extensions, kind).toMatchObject({ code: 'BAD_USER_INPUT', field: 'input.lastName' });
    }
    const prisma = server.app.deps.prisma;
    expect(await prisma.notification.count({ where: { title: { contains: 'Q1' } } })).toBe(0);
    expect(await prisma.user.count({ where: { email: 'gql.user@example.com' } })).toBe(0);
  });

  it('a line break in a single-line field is the typed ValidationError with its field', async () => {
    const r = await admin.gql(
      `mutation($input: CreateReviewPeriodInput!) { createReviewPeriod(input: $input) { __typename ... on ValidationError { message field } } }`,
      { input: { name: 'Q2\nforged line' } },
    );
    expect(r.body.data.createReviewPeriod).toEqual({
      __typename: 'ValidationError',
      message: 'Period name must be on one line (no line breaks or tabs)',
      field: 'name',
    });
  });
});

describe('exports of uploaded data', () => {
  it('carry no control characters from the file, and formulas hidden behind them stay neutralised (CSV and XLSX)', async () => {
    const esc = '\u001b';
    const file =
      'User ID,User Name,Access Risk ID,Role/Profile,System,Risk Description\r\n' +
      `U1,"${esc}[31mRed${esc}[0m Name",R1,ROLE_A,SAP ERP,"Pay \u202eexe.txt now\u0007"\r\n` +
      `U2,Plain Name,R2,"${esc}=HYPERLINK(""http://x"")",SAP ERP,"\ufeff\u009b@SUM(A1)"\r\n`;
    await loadExport(server, admin, file, { name: 'risks\u202excs.csv' });

    const fetchText = async (path: string) => {
      const res = await fetch(server.url + path, { headers: { cookie: admin.cookieHeader } });
      expect(res.status, path).toBe(200);
      return res.text();
    };
    // eslint-disable-next-line no-control-regex -- finds the control characters an export must not hold
    const unsafe = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\ufeff]/;
    for (const path of ['/api/reports/risk-report', '/api/risks/export']) {
      const text = await fetchText(path);
      expect(unsafe.test(text.replace(/^\ufeff/, '')), path).toBe(false);
      const rows = parseCsv(text);
      const u1 = rows.find((r) => r['User ID'] === 'U1')!;
      const u2 = rows.find((r) => r['User ID'] === 'U2')!;
      expect(u1['User Name']).toBe('[31mRed[0m Name');
      expect(u1['Risk Description']).toBe('Pay exe.txt now');
      expect(u2['Role/Profile']).toBe(`'=HYPERLINK("http://x")`);
      expect(u2['Risk Description']).toBe(`'@SUM(A1)`);
    }

    // The evidence file lists the upload by its name (from the browser, with an RTLO).
    // (The period the earlier test opened.)
    const period = await admin.get('/api/review-periods/active');
    expect(period.body?.id).toBeTruthy();
    const csv = await fetchText(`/api/reports/evidence?periodId=${period.body.id}&format=csv`);
    expect(unsafe.test(csv.replace(/^\ufeff/, ''))).toBe(false);
    expect(csv).toContain('risksxcs.csv');
    const res = await fetch(`${server.url}/api/reports/evidence?periodId=${period.body.id}&format=xlsx`, { headers: { cookie: admin.cookieHeader } });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    const values: string[] = [];
    wb.eachSheet((ws) => ws.eachRow((row) => row.eachCell((c) => values.push(String(c.value)))));
    expect(values).toContain('risksxcs.csv');
    expect(values.some((v) => unsafe.test(v))).toBe(false);
  });

  it('neutralizeText removes exactly the unsafe characters', () => {
    expect(neutralizeText('a\u001b[1mb\u0007\u202ec\ufeffd\u009be\tf\ng\r\nh é 日本 ✅')).toBe('a[1mbcde\tf\ng\r\nh é 日本 ✅');
  });
});
