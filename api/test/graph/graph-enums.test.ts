// One convention for enum values. GraphQL names every enum
// value in UPPER_CASE; REST keeps the SPEC's lower-case strings, for the same
// records, both ways (the schema maps one to the other; services, REST and the
// database see the lower-case values only).
import { GraphQLEnumType, isEnumType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../src/schema/index.js';
import { graphName } from '../../src/schema/enums.js';
import { Client, adminClient, startServer, userClient, type TestServer } from '../helpers/server.js';
import { seedRows } from '../helpers/seed.js';

const UPPER_CASE = /^[A-Z][A-Z0-9_]*$/;

describe('the schema’s enums', () => {
  it('name every value in UPPER_CASE', () => {
    const enums = Object.values(schema.getTypeMap()).filter((t): t is GraphQLEnumType => isEnumType(t) && !t.name.startsWith('__'));
    expect(enums.length).toBeGreaterThan(30);
    const lower = enums.flatMap((e) =>
      e
        .getValues()
        .filter((v) => !UPPER_CASE.test(v.name))
        .map((v) => `${e.name}.${v.name}`),
    );
    expect(lower).toEqual([]);
  });

  it('map GraphQL names to the SPEC’s strings and back', () => {
    const decision = schema.getType('DecisionValue') as GraphQLEnumType;
    expect(decision.getValues().map((v) => [v.name, v.value])).toEqual(
      expect.arrayContaining([
        ['RETAIN', 'retain'],
        ['REMOVE', 'remove'],
        ['RETAIN_MITIGATED', 'retain_mitigated'],
      ]),
    );
    expect(graphName('last30Days')).toBe('LAST_30_DAYS');
    expect(graphName('risk_id')).toBe('RISK_ID');
  });
});

describe('REST and GraphQL on the same records', () => {
  let server: TestServer;
  let admin: Client;
  let reviewer: Awaited<ReturnType<typeof userClient>>;
  let rows: bigint[];

  beforeAll(async () => {
    server = await startServer();
    admin = await adminClient(server);
    reviewer = await userClient(server, admin);
    rows = await seedRows(server.app.deps.prisma, [
      { userId: 'E1', userName: 'Enid Enum', userGroup: 'ENUMGRP', accessRiskId: 'ER1' },
      { userId: 'E2', userName: 'Ezra Enum', userGroup: 'ENUMGRP', accessRiskId: 'ER2' },
    ]);
    expect((await admin.post('/api/assignment-criteria', { reviewerId: reviewer.user.id, criteriaType: 'user_group', criteriaValue: 'ENUMGRP' })).status).toBe(
      201,
    );
    expect((await admin.post('/api/review-periods', { name: 'Enum convention' })).status).toBe(201);
  });
  afterAll(async () => server?.close());

  const graphRows = async () =>
    (await reviewer.client.gql('{ assignedRisks(first: 10) { edges { node { id userId riskLevel myDecision } } } }')).body.data.assignedRisks.edges.map(
      (e: any) => e.node,
    );
  const restDecisions = async () => new Map((await reviewer.client.get('/api/assigned-risks')).body.risks.map((r: any) => [r.userId, r.decision]));

  it('a role: REST answers reviewer, GraphQL REVIEWER', async () => {
    const rest = (await admin.get('/api/users')).body.find((u: any) => u.id === reviewer.user.id);
    expect(rest.role).toBe('reviewer');
    const graph = await admin.gql('{ users(first: 100, role: REVIEWER) { edges { node { email role } } } }');
    expect(graph.body.errors).toBeUndefined();
    expect(graph.body.data.users.edges.find((e: any) => e.node.email === reviewer.email).node.role).toBe('REVIEWER');
  });

  it('a decision saved over REST in lower case reads back in UPPER_CASE over GraphQL', async () => {
    const saved = await reviewer.client.post('/api/reviews/decision', { riskDefinitionId: Number(rows[0]), decision: 'remove', comments: 'Left the team' });
    expect(saved.status).toBeLessThan(300);
    expect((await restDecisions()).get('E1')).toBe('remove');
    const e1 = (await graphRows()).find((r: any) => r.userId === 'E1');
    expect(e1).toMatchObject({ myDecision: 'REMOVE', riskLevel: 'HIGH' });
  });

  it('a decision saved over GraphQL in UPPER_CASE reads back in lower case over REST', async () => {
    const e2 = (await graphRows()).find((r: any) => r.userId === 'E2');
    const saved = await reviewer.client.gql(
      'mutation ($d: [DecisionInput!]!) { saveDecisions(decisions: $d) { __typename ... on MutationSaveDecisionsSuccess { data { saved } } ... on Error { message } } }',
      { d: [{ riskRowId: e2.id, decision: 'RETAIN' }] },
    );
    expect(saved.body.data.saveDecisions).toMatchObject({ __typename: 'MutationSaveDecisionsSuccess', data: { saved: 1 } });
    expect((await restDecisions()).get('E2')).toBe('retain');
    expect((await graphRows()).find((r: any) => r.userId === 'E2').myDecision).toBe('RETAIN');
  });

  it('each side refuses the other’s spelling, naming the value', async () => {
    const rest = await reviewer.client.post('/api/reviews/decision', { riskDefinitionId: Number(rows[1]), decision: 'RETAIN' });
    expect(rest.status).toBe(400);
    expect(JSON.stringify(rest.body)).toMatch(/decision must be retain/i);
    const e2 = (await graphRows()).find((r: any) => r.userId === 'E2');
    const graph = await reviewer.client.gql('mutation ($d: [DecisionInput!]!) { saveDecisions(decisions: $d) { __typename } }', {
      d: [{ riskRowId: e2.id, decision: 'retain' }],
    });
    expect(graph.body.errors?.[0]?.message).toMatch(/"retain".*DecisionValue/);
  });
});
