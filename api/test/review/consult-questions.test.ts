// Consult, not guess: a reviewer not sure of a row asks another user about it
// (GraphQL and REST), the person asked is notified with a link, reads that row
// only (read-only: they cannot decide it) and answers; the answer shows on the
// reviewer's row, the row stays pending and no count moves; administrators list
// the open questions; asked and answered are audited; the refusals name what
// was wrong.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { ADMIN_EMAIL, Client, adminClient, startServer, userClients, type TestServer, type UserClient } from '../helpers/server.js';
import { loadExport } from '../helpers/upload.js';

let server: TestServer;
let admin: Client;
let a: UserClient; // the reviewer who asks
let b: UserClient; // the person asked (reviews another system)
let c: UserClient; // a third reviewer, party to nothing
let d: UserClient; // deactivated
const ids: Record<string, number> = {};

const CSV =
  'User ID,User Name,Access Risk ID,Risk Description,Risk Level,Rule ID,System,Role/Profile\r\n' +
  'U1,Alice Jones,R01,Pay vendors,High,0301,SAP ERP,Z_AP_CLERK\r\n' +
  'U1,Alice Jones,R02,Post journals,Medium,0102,SAP ERP,Z_GL\r\n' +
  'U2,Bob Smith,R03,Payroll,Low,0101,Workday,HR_ADMIN\r\n';

const userGid = (id: string) => encodeGlobalID('User', id);
const rowGid = (id: number) => encodeGlobalID('RiskRow', String(id));

const ASK = `mutation Ask($row: ID!, $user: ID!, $q: String!) {
  askQuestion(riskRowId: $row, askedUserId: $user, question: $q) {
    __typename
    ... on MutationAskQuestionSuccess { data { id status question askedOf { email } riskRow { accessRiskId } } }
    ... on Error { message }
  }
}`;
const ANSWER = `mutation Answer($id: ID!, $answer: String!) {
  answerQuestion(id: $id, answer: $answer) {
    __typename
    ... on MutationAnswerQuestionSuccess { data { id status answer answeredAt } }
    ... on Error { message }
  }
}`;
const QUESTION = `query Q($id: ID!) { node(id: $id) { ... on ConsultQuestion { question canAnswer status askedBy { email } riskRow { accessRiskId userName myDecision } } } }`;
const MY_ROWS = `{ assignedRisks(first: 50) { edges { node { accessRiskId myDecision myQuestions { status question answer askedOf { email name } } } } }
  assignedSummary { totalAssigned pendingReview reviewed } }`;

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
  [a, b, c, d] = (await userClients(server, admin, 4)) as [UserClient, UserClient, UserClient, UserClient];
  await loadExport(server, admin, CSV);
  expect((await admin.post('/api/assignment-criteria', { reviewerId: a.user.id, criteriaType: 'system', criteriaValue: 'SAP ERP' })).status).toBe(201);
  expect((await admin.post('/api/assignment-criteria', { reviewerId: b.user.id, criteriaType: 'system', criteriaValue: 'Workday' })).status).toBe(201);
  expect((await admin.put(`/api/users/${d.user.id}/deactivate`)).status).toBe(200);
  expect((await admin.post('/api/review-periods', { name: 'Q4 review' })).status).toBe(201);
  for (const r of (await admin.get('/api/risks')).body.risks as { id: number; accessRiskId: string }[]) ids[r.accessRiskId] = r.id;
});
afterAll(async () => server?.close());

describe('a consult question and its answer', () => {
  let qid = ''; // global id (GraphQL)
  let uuid = ''; // REST id

  it('asks through GraphQL: the person asked is found among the askable users and notified with a link to the question', async () => {
    const people = await a.client.gql(`query P($s: String) { askableUsers(search: $s) { id email name } }`, { s: b.email });
    expect(people.body.data.askableUsers).toEqual([expect.objectContaining({ id: userGid(b.user.id), email: b.email })]);
    // Nobody lists themselves, nor a deactivated user.
    const all = (await a.client.gql(`{ askableUsers { email } }`)).body.data.askableUsers.map((p: { email: string }) => p.email);
    expect(all).not.toContain(a.email);
    expect(all).not.toContain(d.email);

    const asked = await a.client.gql(ASK, { row: rowGid(ids.R01!), user: userGid(b.user.id), q: 'Does Alice still pay vendors?' });
    const result = asked.body.data.askQuestion;
    expect(result.__typename).toBe('MutationAskQuestionSuccess');
    expect(result.data).toMatchObject({
      status: 'OPEN',
      question: 'Does Alice still pay vendors?',
      askedOf: { email: b.email },
      riskRow: { accessRiskId: 'R01' },
    });
    qid = result.data.id;

    const notes = (await b.client.get('/api/notifications')).body.notifications as { title: string; message: string; link?: string; senderName: string }[];
    const note = notes.find((n) => n.title === 'A reviewer asks for your view')!;
    expect(note.message).toContain('Does Alice still pay vendors?');
    expect(note.message).toContain('R01');
    expect(note.link).toMatch(/^\/questions\/[0-9a-f-]{36}$/);
    uuid = note.link!.slice('/questions/'.length);
    expect(encodeGlobalID('ConsultQuestion', uuid)).toBe(qid);
  });

  it("is not a decision: the asker's row stays pending and no count moves", async () => {
    const mine = (await a.client.gql(MY_ROWS)).body.data;
    expect(mine.assignedSummary).toEqual({ totalAssigned: 2, pendingReview: 2, reviewed: 0 });
    const r01 = mine.assignedRisks.edges.map((e: any) => e.node).find((n: any) => n.accessRiskId === 'R01');
    expect(r01).toMatchObject({ myDecision: null, myQuestions: [{ status: 'OPEN', answer: null, askedOf: { email: b.email } }] });
    const status = (await a.client.get('/api/reviews/submission-status')).body;
    expect(status).toMatchObject({ hasDecisions: false, totalDecisions: 0 });
    expect((await a.client.get('/api/assigned-risks')).body.risks.find((r: any) => r.accessRiskId === 'R01').decision).toBe('');
  });

  it('lets the person asked read that row only, read-only, through the question', async () => {
    const read = (await b.client.gql(QUESTION, { id: qid })).body.data.node;
    expect(read).toMatchObject({ question: 'Does Alice still pay vendors?', canAnswer: true, status: 'OPEN', askedBy: { email: a.email } });
    expect(read.riskRow).toMatchObject({ accessRiskId: 'R01', userName: 'Alice Jones', myDecision: null });
    const rest = (await b.client.get(`/api/questions/${uuid}`)).body;
    expect(rest).toMatchObject({ status: 'open', riskDefinitionId: ids.R01, askedBy: { email: a.email }, riskRow: { accessRiskId: 'R01', decision: '' } });

    // Not through node(id:), not in their list, not the other rows.
    expect((await b.client.gql(`query R($id: ID!) { node(id: $id) { id } }`, { id: rowGid(ids.R01!) })).body.data.node).toBeNull();
    expect((await b.client.get('/api/assigned-risks')).body.risks.map((r: any) => r.accessRiskId)).toEqual(['R03']);
    expect((await b.client.gql(`query R($id: ID!) { node(id: $id) { id } }`, { id: rowGid(ids.R02!) })).body.data.node).toBeNull();

    // And they cannot decide it.
    const decide = await b.client.post('/api/reviews/decision', { riskDefinitionId: ids.R01, decision: 'remove' });
    expect(decide.status).toBeGreaterThanOrEqual(400);
    expect(decide.status).toBeLessThan(500);
    expect(await server.app.deps.prisma.decision.count({ where: { riskRowId: BigInt(ids.R01!) } })).toBe(0);
  });

  it('hides the question from anyone else', async () => {
    expect((await c.client.gql(QUESTION, { id: qid })).body.data.node).toBeNull();
    const rest = await c.client.get(`/api/questions/${uuid}`);
    expect(rest.status).toBe(404);
    expect(rest.body.message).toBe('Question not found');
    expect((await c.client.get('/api/questions?status=all')).body).toEqual({ questions: [], total: 0 });
  });

  it('lists the open questions for administrators: who asked whom, when, about which row', async () => {
    const list = (await admin.get('/api/questions?status=open')).body;
    expect(list.total).toBe(1);
    expect(list.questions[0]).toMatchObject({
      id: uuid,
      status: 'open',
      periodName: 'Q4 review',
      askedBy: { id: a.user.id, email: a.email },
      askedOf: { id: b.user.id, email: b.email },
      row: { userId: 'U1', accessRiskId: 'R01', system: 'SAP ERP', roleProfile: 'Z_AP_CLERK' },
      link: `/questions/${uuid}`,
    });
    expect(Date.parse(list.questions[0].askedAt)).toBeGreaterThan(Date.now() - 120_000);
    const gql = (await admin.gql(`{ consultQuestions(status: OPEN) { totalCount edges { node { id askedBy { email } askedOf { email } period { name } } } } }`))
      .body.data;
    expect(gql.consultQuestions.totalCount).toBe(1);
    expect(gql.consultQuestions.edges[0].node).toMatchObject({
      id: qid,
      askedBy: { email: a.email },
      askedOf: { email: b.email },
      period: { name: 'Q4 review' },
    });
  });

  it('refuses an answer from anyone but the person asked, and an empty one', async () => {
    const byAsker = await a.client.post(`/api/questions/${uuid}/answer`, { answer: 'I answer myself' });
    expect(byAsker.status).toBe(403);
    expect(byAsker.body.message).toMatch(/asked of .*only they can answer it/);
    const byAdmin = await admin.gql(ANSWER, { id: qid, answer: 'Admin answer' });
    expect(byAdmin.body.data.answerQuestion).toMatchObject({ __typename: 'BaseError', message: expect.stringContaining('only they can answer it') });
    expect((await c.client.post(`/api/questions/${uuid}/answer`, { answer: 'Me' })).status).toBe(404);
    const empty = await b.client.post(`/api/questions/${uuid}/answer`, { answer: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('An answer is required');
  });

  it('takes the answer of the person asked (REST), once, and shows it on the asker’s row; the decision stays the asker’s', async () => {
    const answered = await b.client.post(`/api/questions/${uuid}/answer`, { answer: 'Yes: she is the only AP clerk.' });
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ status: 'answered', answer: 'Yes: she is the only AP clerk.' });
    const again = await b.client.post(`/api/questions/${uuid}/answer`, { answer: 'Changed my mind' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This question has already been answered');

    const mine = (await a.client.gql(MY_ROWS)).body.data;
    const r01 = mine.assignedRisks.edges.map((e: any) => e.node).find((n: any) => n.accessRiskId === 'R01');
    expect(r01.myQuestions).toEqual([
      {
        status: 'ANSWERED',
        question: 'Does Alice still pay vendors?',
        answer: 'Yes: she is the only AP clerk.',
        askedOf: { email: b.email, name: expect.any(String) },
      },
    ]);
    expect(r01.myDecision).toBeNull();
    expect(mine.assignedSummary.pendingReview).toBe(2);
    const notes = (await a.client.get('/api/notifications')).body.notifications as { title: string; message: string; link?: string }[];
    expect(notes.find((n) => n.title === 'Your question was answered')).toMatchObject({ link: `/questions/${uuid}` });
    // The asker decides, as always.
    expect((await a.client.post('/api/reviews/decision', { riskDefinitionId: ids.R01, decision: 'retain' })).status).toBe(200);
    expect((await admin.get('/api/questions?status=open')).body.total).toBe(0);
    expect((await admin.get('/api/questions?status=answered')).body.total).toBe(1);
  });

  it('is shown by the operations the screens send, within the server’s depth and cost limits', async () => {
    // The operations the current web artifacts send, by persisted id, as the web app does.
    const web = path.resolve(import.meta.dirname, '../../../web');
    const persisted = JSON.parse(fs.readFileSync(path.join(web, 'persisted-queries.json'), 'utf8')) as Record<string, string>;
    const op = (name: string) => {
      const artifact = fs.readFileSync(path.join(web, 'src/__generated__', `${name}.graphql.ts`), 'utf8');
      return server.persist(persisted[/"id": "([0-9a-f]{64})"/.exec(artifact)![1]!]!);
    };
    const rows = await a.client.gqlPersisted(op('AssignedRisksQuery'), { first: 25 });
    expect(rows.body.errors).toBeUndefined();
    expect(JSON.stringify(rows.body.data)).toContain('Yes: she is the only AP clerk.');
    const page = await b.client.gqlPersisted(op('QuestionRouteQuery'), { id: qid });
    expect(page.body.errors).toBeUndefined();
    expect(page.body.data.node).toMatchObject({ question: 'Does Alice still pay vendors?', canAnswer: false, riskRow: { accessRiskId: 'R01' } });
    const bell = await b.client.gqlPersisted(op('NotificationBellQuery'), { count: 20 });
    expect(bell.body.errors).toBeUndefined();
    expect(JSON.stringify(bell.body.data)).toContain(`"link":"/questions/${uuid}"`);
    const settings = await admin.gqlPersisted(op('AdminSettingsRouteQuery'), {});
    expect(settings.body.errors).toBeUndefined();
    expect(settings.body.data.openQuestions.totalCount).toBe(0);
  });

  it('audits the question asked and answered', async () => {
    const events = await server.app.deps.prisma.auditEvent.findMany({
      where: { entityType: 'ConsultQuestion', entityId: uuid },
      orderBy: { occurredAt: 'asc' },
    });
    expect(events.map((e) => [e.action, e.actorId])).toEqual([
      ['question.asked', a.user.id],
      ['question.answered', b.user.id],
    ]);
    expect(events[0]!.after).toMatchObject({ askedOf: b.email, question: 'Does Alice still pay vendors?' });
  });
});

describe('asking through REST, answering through GraphQL', () => {
  it('asks the administrator about a row and takes the answer', async () => {
    const asked = await a.client.post(`/api/risks/${ids.R02}/questions`, {
      askedUserId: (await server.app.deps.prisma.user.findUniqueOrThrow({ where: { email: ADMIN_EMAIL } })).id,
      question: 'Is Z_GL still needed?',
    });
    expect(asked.status).toBe(201);
    expect(asked.body).toMatchObject({ status: 'open', riskDefinitionId: ids.R02, row: { accessRiskId: 'R02' }, answer: null });
    const gid = encodeGlobalID('ConsultQuestion', asked.body.id);
    const answered = await admin.gql(ANSWER, { id: gid, answer: 'No, remove it.' });
    expect(answered.body.data.answerQuestion).toMatchObject({
      __typename: 'MutationAnswerQuestionSuccess',
      data: { status: 'ANSWERED', answer: 'No, remove it.' },
    });
    const mine = (await a.client.get(`/api/questions?status=all&riskDefinitionId=${ids.R02}`)).body;
    expect(mine.questions).toEqual([expect.objectContaining({ status: 'answered', answer: 'No, remove it.' })]);
  });
});

describe('refusals', () => {
  const ask = (who: UserClient | Client, row: number, body: unknown) => ('client' in who ? who.client : who).post(`/api/risks/${row}/questions`, body);

  it('refuses asking yourself, a deactivated user, someone unknown, and an empty question', async () => {
    let r = await ask(a, ids.R02!, { askedUserId: a.user.id, question: 'Me?' });
    expect([r.status, r.body.message]).toEqual([400, 'You cannot ask yourself: choose another person']);
    r = await ask(a, ids.R02!, { askedUserId: d.user.id, question: 'Still there?' });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('is deactivated and cannot be asked');
    r = await ask(a, ids.R02!, { askedUserId: '00000000-0000-4000-8000-000000000000', question: 'Who?' });
    expect([r.status, r.body.message]).toEqual([400, 'The person to ask does not exist']);
    r = await ask(a, ids.R02!, { askedUserId: b.user.id, question: '  ' });
    expect([r.status, r.body.message]).toEqual([400, 'A question is required: say what you are unsure of']);
    const g = await a.client.gql(ASK, { row: rowGid(ids.R02!), user: userGid(a.user.id), q: 'Me?' });
    expect(g.body.data.askQuestion).toMatchObject({ __typename: 'ValidationError', message: 'You cannot ask yourself: choose another person' });
  });

  it('refuses a row the asker cannot see, naming it, and a second open question to the same person', async () => {
    const hidden = await ask(a, ids.R03!, { askedUserId: b.user.id, question: 'And payroll?' });
    expect(hidden.status).toBe(404);
    expect(hidden.body.message).toContain(`Risk row ${ids.R03} not found`);
    expect((await ask(a, ids.R02!, { askedUserId: c.user.id, question: 'First?' })).status).toBe(201);
    const twice = await ask(a, ids.R02!, { askedUserId: c.user.id, question: 'Second?' });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toContain('that question is still open');
    const bad = await a.client.post('/api/risks/abc/questions', { askedUserId: b.user.id, question: 'Hm?' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("id must be a risk row's number");
  });

  it('refuses asking while no period is active', async () => {
    const period = (await admin.get('/api/review-periods/active')).body;
    expect((await admin.put(`/api/review-periods/${period.id}/close`)).status).toBe(200);
    const r = await ask(a, ids.R02!, { askedUserId: b.user.id, question: 'Now?' });
    expect(r.status).toBe(409);
    expect(r.body.message).toContain('No review period is active');
  });
});
