// The lists whose size grows with the data
// (recent reviews, reviewer status, open work, mapping profiles) are Relay
// connections with totalCount, pageInfo, cursors that walk the whole list and
// orderBy; the stored analyses, simulation runs and mapping profiles are Nodes
// that node(id:) reads back for who may see them, and null (no type, no error)
// for anyone else, the same as an id of nothing.
import { encodeGlobalID } from '@pothos/plugin-relay';
import { GraphQLEnumType, GraphQLList, GraphQLNonNull, GraphQLObjectType, getNamedType, type GraphQLOutputType } from 'graphql';
import { schema } from '../../src/schema/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, adminClient, startServer, userClient, type TestServer } from '../helpers/server.js';
import { seedRows, seedUsers } from '../helpers/seed.js';

let server: TestServer;
let admin: Client;
let reviewer: Awaited<ReturnType<typeof userClient>>;
let rows: bigint[];
let seeded: { id: string; email: string; firstName: string; lastName: string }[];

const sod = { accessRiskId: 'NL_SOD', riskLevel: 'high', userGroup: 'NODES' } as const;

beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
  reviewer = await userClient(server, admin);
  rows = await seedRows(server.app.deps.prisma, [
    { userId: 'N1', ...sod, function: 'AP01', ruleId: '0301', roleProfile: 'Z_AP', compositeBusinessRole: 'COMP_AP' },
    { userId: 'N1', ...sod, function: 'AP02', ruleId: '0102', roleProfile: 'Z_PAY', compositeBusinessRole: 'COMP_PAY' },
    { userId: 'N2', ...sod, function: 'AP01', ruleId: '0101', roleProfile: 'Z_AP', compositeBusinessRole: 'COMP_AP' },
    { userId: 'N3', ...sod, function: 'AP01', ruleId: '0101', roleProfile: 'Z_AP', compositeBusinessRole: 'COMP_AP' },
    { userId: 'N4', ...sod, function: 'AP01', ruleId: '0101', roleProfile: 'Z_AP', compositeBusinessRole: 'COMP_AP' },
  ]);
  expect((await admin.post('/api/assignment-criteria', { reviewerId: reviewer.user.id, criteriaType: 'user_group', criteriaValue: 'NODES' })).status).toBe(201);
  seeded = await seedUsers(server.app.deps.prisma, 4, 'reviewer', 'Seeded#Pass1');
  expect((await admin.post('/api/review-periods', { name: 'Nodes and lists' })).status).toBe(201);
  for (const [i, id] of rows.entries()) {
    expect((await reviewer.client.post('/api/reviews/decision', { riskDefinitionId: Number(id), decision: i % 2 ? 'remove' : 'retain' })).status).toBe(200);
  }
});
afterAll(async () => server?.close());

const NODE = `query($id: ID!) { node(id: $id) { __typename id ... on MappingProfile { name } ... on RiskAnalysis { userId analysisId } ... on SimulationRun { userId runId } } }`;
const nodeOf = async (c: Client, id: string) => {
  const r = await c.gql(NODE, { id });
  expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined();
  return r.body.data.node;
};

describe('node(id:) of stored mapping profiles, analyses, simulation runs and bulk runs', () => {
  it('MappingProfile: an administrator reads it back by the id mappingProfiles gives; a reviewer gets null', async () => {
    const profile = await server.app.deps.prisma.mappingProfile.create({
      data: { name: 'Nodes test profile', columns: [{ header: 'User', field: 'userId' }] },
    });
    const list = await admin.gql('{ mappingProfiles(first: 10) { totalCount edges { node { id name } } } }');
    const id = encodeGlobalID('MappingProfile', profile.id);
    expect(list.body.data.mappingProfiles).toEqual({ totalCount: 1, edges: [{ node: { id, name: 'Nodes test profile' } }] });
    expect(await nodeOf(admin, id)).toEqual({ __typename: 'MappingProfile', id, name: 'Nodes test profile' });
    expect((await reviewer.client.gql(NODE, { id })).body).toEqual({ data: { node: null } });
    expect((await reviewer.client.gql('query($ids: [ID!]!) { nodes(ids: $ids) { __typename } }', { ids: [id] })).body).toEqual({ data: { nodes: [null] } });
  });

  it('RiskAnalysis: its analyst reads it back; another caller (an administrator too) gets null, as for no analysis', async () => {
    const run = `mutation { runRiskAnalysis(userId: "N1") { __typename ... on MutationRunRiskAnalysisSuccess { data { id analysisId userId } } ... on Error { message } } }`;
    const mine = (await reviewer.client.gql(run)).body.data.runRiskAnalysis;
    expect(mine.__typename, JSON.stringify(mine)).toBe('MutationRunRiskAnalysisSuccess');
    const { id, analysisId } = mine.data;
    expect(id).toBe(encodeGlobalID('RiskAnalysis', analysisId));
    expect(await nodeOf(reviewer.client, id)).toEqual({ __typename: 'RiskAnalysis', id, userId: 'N1', analysisId });
    expect((await admin.gql(NODE, { id })).body).toEqual({ data: { node: null } });
    // The administrator's own analysis is theirs alone, and latestRiskAnalyses gives the same id.
    const theirs = (await admin.gql(run)).body.data.runRiskAnalysis.data;
    expect(await nodeOf(admin, theirs.id)).toMatchObject({ __typename: 'RiskAnalysis', userId: 'N1' });
    expect((await reviewer.client.gql(NODE, { id: theirs.id })).body).toEqual({ data: { node: null } });
    const latest = await admin.gql('{ latestRiskAnalyses(userIds: ["N1"]) { id } }');
    expect(latest.body.data.latestRiskAnalyses).toEqual([{ id: theirs.id }]);
  });

  it('SimulationRun: an administrator reads a stored run back by the id simulationRuns gives; a reviewer gets null', async () => {
    const ran = await admin.post('/api/simulation/run', {
      userId: 'N1',
      riskId: 'NL_SOD',
      roleScenarios: [{ roleProfile: 'COMP_PAY', action: 'remove' }],
      compositeRolesOnly: false,
    });
    expect(ran.status, JSON.stringify(ran.body)).toBe(200);
    const id = encodeGlobalID('SimulationRun', ran.body.simulationId);
    const runs = await admin.gql('{ simulationRuns(limit: 5) { id runId } }');
    expect(runs.body.data.simulationRuns).toEqual([{ id, runId: ran.body.simulationId }]);
    expect(await nodeOf(admin, id)).toEqual({ __typename: 'SimulationRun', id, userId: 'N1', runId: ran.body.simulationId });
    expect((await reviewer.client.gql(NODE, { id })).body).toEqual({ data: { node: null } });
  });

  it('AiBulkProgress: a bulk categorisation run is read back by the id aiBulkCategorization gives, for an administrator; a reviewer gets null', async () => {
    const run = await server.app.deps.prisma.aiBulkRun.create({ data: { total: 4, done: 4, failed: 1, status: 'completed', finishedAt: new Date() } });
    const id = encodeGlobalID('AiBulkProgress', run.id);
    const latest = await admin.gql('{ aiBulkCategorization { run { id runId status } } }');
    expect(latest.body.data.aiBulkCategorization.run).toEqual({ id, runId: run.id, status: 'COMPLETED' });
    const q = `query($id: ID!) { node(id: $id) { __typename id ... on AiBulkProgress { runId status total done failed } } }`;
    const read = await admin.gql(q, { id });
    expect(read.body).toEqual({ data: { node: { __typename: 'AiBulkProgress', id, runId: run.id, status: 'COMPLETED', total: 4, done: 4, failed: 1 } } });
    // A reviewer learns nothing, as for an id of no run.
    expect((await reviewer.client.gql(q, { id })).body).toEqual({ data: { node: null } });
    expect((await admin.gql(q, { id: encodeGlobalID('AiBulkProgress', '00000000-0000-4000-8000-000000000000') })).body).toEqual({ data: { node: null } });
  });
});

type Conn<N> = { totalCount: number; pageInfo: { hasNextPage: boolean; endCursor: string | null }; edges: { cursor: string; node: N }[] };

/** Every page of a connection, `size` at a time, following endCursor. */
async function walk<N>(c: Client, field: string, selection: string, size: number, extra = ''): Promise<{ pages: Conn<N>[]; nodes: N[] }> {
  const pages: Conn<N>[] = [];
  let after: string | null = null;
  do {
    const r = await c.gql(
      `query($after: String) { list: ${field}(first: ${size}, after: $after${extra}) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { ${selection} } } } }`,
      { after },
    );
    expect(r.body.errors, JSON.stringify(r.body.errors)).toBeUndefined();
    pages.push(r.body.data.list);
    after = pages.at(-1)!.pageInfo.hasNextPage ? pages.at(-1)!.pageInfo.endCursor : null;
  } while (after);
  const nodes = pages.flatMap((p) => p.edges.map((e) => e.node));
  const cursors = pages.flatMap((p) => p.edges.map((e) => e.cursor));
  expect(new Set(cursors).size).toBe(cursors.length);
  return { pages, nodes };
}

describe('the lists that grow with the data are connections', () => {
  it("reviewerStatus: counts every reviewer, walks them page by page, sorts by name or e-mail, with each one's progress", async () => {
    const all = [reviewer.user, ...seeded];
    const { pages, nodes } = await walk<{ reviewer: { id: string; email: string }; assigned: number; decided: number }>(
      admin,
      'reviewerStatus',
      'reviewer { id email } assigned decided',
      2,
    );
    expect(pages[0]!.totalCount).toBe(all.length);
    expect(pages).toHaveLength(Math.ceil(all.length / 2));
    expect(nodes).toHaveLength(all.length);
    const byName = [...all].sort((a, b) => (a.firstName + a.lastName).localeCompare(b.firstName + b.lastName) || a.email.localeCompare(b.email));
    expect(nodes.map((n) => n.reviewer.email)).toEqual(byName.map((u) => u.email));
    expect(nodes.find((n) => n.reviewer.email === reviewer.email)).toMatchObject({ assigned: rows.length, decided: rows.length });
    const byEmail = await walk<{ reviewer: { email: string } }>(
      admin,
      'reviewerStatus',
      'reviewer { email }',
      4,
      ', orderBy: { field: EMAIL, direction: DESC }',
    );
    expect(byEmail.nodes.map((n) => n.reviewer.email)).toEqual(
      all
        .map((u) => u.email)
        .sort()
        .reverse(),
    );
    // A reviewer may not read it.
    expect((await reviewer.client.gql('{ reviewerStatus(first: 1) { totalCount } }')).body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('recentReviews: newest first, 10 a page unless asked, counted in full, every decision once across pages', async () => {
    const first = await reviewer.client.gql('{ recentReviews { totalCount edges { node { decision } } } }');
    expect(first.body.data.recentReviews.totalCount).toBe(rows.length);
    const { nodes } = await walk<{ id: string; createdAt: string }>(reviewer.client, 'recentReviews', 'id createdAt', 2);
    expect(nodes).toHaveLength(rows.length);
    expect(new Set(nodes.map((n) => n.id)).size).toBe(rows.length);
    const times = nodes.map((n) => n.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    // Another reviewer has made no decision: an empty page, counted as such.
    const other = await userClient(server, admin);
    expect((await other.client.gql('{ recentReviews { totalCount edges { cursor } pageInfo { hasNextPage } } }')).body.data.recentReviews).toEqual({
      totalCount: 0,
      edges: [],
      pageInfo: { hasNextPage: false },
    });
  });

  it('reassignmentOpenWork: a reviewer their own work; an administrator each deactivated reviewer holding work, counted and paged', async () => {
    const mine = await reviewer.client.gql(
      '{ reassignmentOpenWork(first: 5) { totalCount edges { node { reviewer { email } pending criteria { name } itemIds } } } }',
    );
    expect(mine.body.data.reassignmentOpenWork).toEqual({
      totalCount: 1,
      edges: [{ node: { reviewer: { email: reviewer.email }, pending: 0, criteria: [{ name: 'USER GROUP: NODES' }], itemIds: [] } }],
    });
    expect((await admin.gql('{ reassignmentOpenWork(first: 5) { totalCount } }')).body.data.reassignmentOpenWork.totalCount).toBe(0);
    // Two seeded reviewers get work and are deactivated: the administrator's list holds both, a page at a time.
    for (const u of seeded.slice(0, 2)) {
      expect((await admin.post('/api/assignment-criteria', { reviewerId: u.id, criteriaType: 'system', criteriaValue: `SYS-${u.id}` })).status).toBe(201);
      expect((await admin.put(`/api/users/${u.id}/deactivate`)).status).toBe(200);
    }
    const { pages, nodes } = await walk<{ reviewer: { email: string }; criteria: { name: string }[] }>(
      admin,
      'reassignmentOpenWork',
      'reviewer { email } criteria { name }',
      1,
      ', orderBy: { field: EMAIL }',
    );
    expect(pages[0]!.totalCount).toBe(2);
    expect(pages).toHaveLength(2);
    expect(nodes.map((n) => n.reviewer.email)).toEqual(
      seeded
        .slice(0, 2)
        .map((u) => u.email)
        .sort(),
    );
    expect(nodes.every((n) => n.criteria.length === 1)).toBe(true);
  });
});

describe('the shape of the schema', () => {
  const objects = Object.values(schema.getTypeMap()).filter((t): t is GraphQLObjectType => t instanceof GraphQLObjectType && !t.name.startsWith('__'));
  const isList = (t: GraphQLOutputType): boolean => (t instanceof GraphQLNonNull ? isList(t.ofType) : t instanceof GraphQLList);

  it('every object with an id of its own is a Node', () => {
    // Objects whose id is another Node's (the criterion, the reviewer), not their own.
    const carriesAnotherNodesId = ['AccessProgress', 'ConsultPerson', 'OpenWorkCriterion', 'ReassignableReviewer'];
    const notNodes = objects.filter((t) => 'id' in t.getFields() && !t.getInterfaces().some((i) => i.name === 'Node')).map((t) => t.name);
    expect(notNodes.sort()).toEqual(carriesAnotherNodesId.sort());
  });

  it('every object carrying a key of its own (an id, runId, previewId…) is a Node, or is on this list with the reason it is not an entity', () => {
    // Each non-Node object with an id-like field, and why a tool never reads it back by that key.
    const notEntities: Record<string, string> = {
      AccessConflict: 'a (user, risk) pair inside an AccessAnalysis Node; userId and riskId name the SAP user and the rule set’s risk',
      AccessTestConflict: 'a (user, risk) pair a test AccessAnalysis would add or remove; userId and riskId name the SAP user and the rule set’s risk',
      AccessConflictCount: 'one group of AccessAnalysis.breakdown: key names the risk, business process, system or user counted',
      AccessConflictRow: 'a row of an AccessConflict; userId and riskId name the SAP user and the rule set’s risk',
      AccessRuleFunction: 'a function inside an AccessRuleRisk of an AccessRuleSet Node; functionId names it in the rule set',
      AccessRuleRisk: 'a risk of an AccessRuleSet Node (AccessRuleSet.riskList); riskId names it in the rule set',
      AccessProgress: 'an event of the accessProgress subscription; id is the AccessExtract or AccessAnalysis Node’s global id',
      OpenWorkCriterion: 'its id is the AssignmentCriteria Node’s',
      ReassignableReviewer: 'its id is the User Node’s',
      AuditChainBreak: 'where auditChainVerification found the chain broken; eventId names the audit event, which is read in the evidence, not as a Node',
      AiCategorization: 'an answer of categorizeRisk; riskId names the access risk of the loaded data',
      AiRiskProfile: 'an AI answer for a user’s access risk, computed on request; not stored as an entity',
      AiSuggestionDecision: 'the outcome of accepting or rejecting a suggestion; riskId names the access risk',
      ConsultPerson: 'a party to a ConsultQuestion Node; its id is the User Node’s',
      ApprovalItem: 'one decision inside approvalReview; riskRowId and userId name the RiskRow and reviewed user',
      AuthorizationDetail: 'a line of a composite role (riskRowId names the RiskRow)',
      CompositeRoleRule: 'a rule id of the loaded data under a composite role',
      EvidenceDecision: 'a line of periodEvidence, keyed by the reviewed user and access risk of the data',
      EvidenceUpload: 'uploadId is the DataUpload Node’s (raw id for the evidence files)',
      ReconciliationEntry: 'one upload in a period’s reconciliation; uploadId is the DataUpload Node’s (raw id, as the bundle’s manifest gives it)',
      ExpiredMitigation: 'a line of expiredMitigations; riskRowId names the RiskRow',
      ItemCommentNote: 'a comment on a RiskRow inside a submission state',
      RiskBreakdownEntry: 'one risk’s status inside a RiskAnalysis Node',
      RoleWhatIfUser: 'a user of the loaded data in a what-if answer',
      SimulationAccessItem: 'a row of a simulation table (rowId names the RiskRow)',
      SimulationResult: 'the answer of runSimulation; simulationId is the SimulationRun Node’s stored id',
      SimulationConflict: 'a conflict inside a simulation’s engine answer; riskId names the rule set’s risk',
      SimulationConflictPath: 'a path of a SimulationConflict; riskId and functionId name the rule set’s risk and function',
      SimulationEngineAnswer:
        'the engine’s part of a simulation answer, computed on request and not stored; ruleSetId names the AccessRuleSet version analysed',
      SubmissionItemComment: 'a comment on a RiskRow inside a Submission Node',
      UnassignedConflict: 'a line of unassignedConflicts; riskRowId names the RiskRow that no reviewer holds',
      UploadPreview: 'a scratch file kept a day until started: previewUpload(previewId:) reads it again, then it is gone',
      UploadProgress: 'an event of the uploadProgress subscription; uploadId is the DataUpload Node’s global id',
    };
    const keyed = objects
      .filter((t) => !t.getInterfaces().some((i) => i.name === 'Node'))
      .filter((t) => Object.keys(t.getFields()).some((f) => /^(id|key)$|Id$/.test(f)))
      .map((t) => t.name);
    expect(keyed.sort()).toEqual(Object.keys(notEntities).sort());
  });

  it('a root list of objects is a connection unless it is one of the bounded lists, which say their ceiling', () => {
    const bounded = [
      'accessRuleSets',
      'askableUsers',
      'assignmentValues',
      'compositeRoleNames',
      'latestRiskAnalyses',
      'reassignmentReviewers',
      'simulationExtractUsers',
      'simulationRisks',
      'simulationRoles',
      'simulationRuns',
      'dashboardTrend',
      'riskCategories',
      'nodes',
      'evidenceBundles',
      'reviewPeriodTemplates',
    ];
    const lists = Object.values(schema.getQueryType()!.getFields()).filter(
      (f) => (isList(f.type) && getNamedType(f.type) instanceof GraphQLObjectType) || (isList(f.type) && getNamedType(f.type).name === 'Node'),
    );
    expect(lists.map((f) => f.name).sort()).toEqual([...bounded].sort());
    // Their descriptions name the ceiling (the trend has one point per day or week of its range; categories one per category).
    for (const f of lists.filter((l) => !['dashboardTrend', 'riskCategories', 'nodes'].includes(l.name))) {
      expect(`${f.name}: ${f.description} ${f.args.map((a) => a.description).join(' ')}`).toMatch(/at most|bounded/i);
    }
  });

  it('the closed sets that were strings are enums, the error codes of mutation results too', () => {
    const enumOf = (type: string, field: string) => getNamedType((schema.getType(type) as GraphQLObjectType).getFields()[field]!.type);
    for (const [type, field, values] of [
      ['ApprovalItem', 'riskLevel', ['high', 'low', 'medium']],
      ['EvidenceDecision', 'decision', ['remove', 'retain', 'retain_mitigated']],
      ['DashboardChange', 'reason', ['decisions', 'upload']],
      ['AiBulkProgress', 'status', ['capped', 'completed', 'failed', 'running']],
      ['PeriodReminder', 'kind', ['escalation', 'reminder']],
    ] as const) {
      const t = enumOf(type, field);
      expect(t, `${type}.${field}`).toBeInstanceOf(GraphQLEnumType);
      expect(
        (t as GraphQLEnumType)
          .getValues()
          .map((v) => v.value)
          .sort(),
        `${type}.${field}`,
      ).toEqual(values);
    }
    // The error codes of the mutation results are one enum.
    for (const type of ['BaseError', 'ValidationError']) {
      const t = enumOf(type, 'code') as GraphQLEnumType;
      expect(t.name).toBe('ErrorCode');
      expect(t.getValues().map((v) => v.value)).toEqual(expect.arrayContaining(['BAD_USER_INPUT', 'FORBIDDEN', 'NOT_FOUND', 'CONFLICT']));
    }
  });
});
