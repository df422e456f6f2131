// A run's conflicts counted by risk, business process, system and user (the
// figures the run's page draws as charts): counted whole by the database, most
// first, a cross-system conflict counting on each of its systems, with the
// exercised ones apart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, startServer, type Client, type TestServer } from '../helpers/server.js';
import { PAY_ROLE, POST_ROLE, act, assign, estate, fn, pairRules, risk, rf, user } from './support/fixtures.js';
import { postZip, settle } from './support/edge.js';

let server: TestServer;
let admin: Client;
beforeAll(async () => {
  server = await startServer();
  admin = await adminClient(server);
}, 60_000);
afterAll(async () => server?.close());

describe('a run’s breakdown of its conflicts', () => {
  it('counts conflicts by risk, business process, system and user, most first, exercised apart', async () => {
    // R1 (FI) as usual; R2 (P2P, Cross scope): FB01 on one system and F-53 on another.
    const rules = pairRules({
      risks: [risk('R1'), { ...risk('R2'), 'Business Process': 'P2P' }],
      functions: [fn('F1'), fn('F2'), fn('F3', 'Cross'), fn('F4', 'Cross')],
      risk_functions: [rf('R1', 'F1'), rf('R1', 'F2'), rf('R2', 'F3'), rf('R2', 'F4')],
      function_actions: [act('F1', 'FB01'), act('F2', 'F-53'), act('F3', 'FB01'), act('F4', 'F-53')],
    });
    const set = await postZip(server, admin, '/api/rule-sets', rules, { name: 'Breakdown' });
    expect(set.status).toBe(201);
    // A: both R1 functions on ONE (R1 and R2). B: the posting on ONE, the payment on TWO (R2 only). C: R1 on ONE, exercised.
    const one = await postZip(
      server,
      admin,
      '/api/systems/BD-ONE/extracts',
      estate({
        USR02: [user('A'), user('B'), user('C')],
        AGR_USERS: [assign('A', 'Z_POST'), assign('A', 'Z_PAY'), assign('B', 'Z_POST'), assign('C', 'Z_POST'), assign('C', 'Z_PAY')],
        AGR_1251: [...POST_ROLE, ...PAY_ROLE],
        USAGE: [
          { BNAME: 'C', TCODE: 'FB01', COUNT: '3', LAST_USED: '20260601' },
          { BNAME: 'C', TCODE: 'F-53', COUNT: '1', LAST_USED: '20260601' },
        ],
      }),
    );
    const two = await postZip(
      server,
      admin,
      '/api/systems/BD-TWO/extracts',
      estate({ USR02: [user('B')], AGR_USERS: [assign('B', 'Z_PAY')], AGR_1251: PAY_ROLE }),
    );
    await settle(admin, `/api/systems/BD-ONE/extracts/${one.body.id}`);
    await settle(admin, `/api/systems/BD-TWO/extracts/${two.body.id}`);
    const started = await admin.post('/api/analyses', { ruleSetId: set.body.id, systems: ['BD-ONE', 'BD-TWO'], asOf: '2026-06-30' });
    expect(await settle(admin, `/api/analyses/${started.body.id}`)).toMatchObject({ status: 'completed', conflicts: 5 });

    const gid = Buffer.from(`AccessAnalysis:${started.body.id}`).toString('base64');
    const r = await admin.gql(`{ node(id: "${gid}") { ... on AccessAnalysis {
      risk: breakdown(by: RISK) { key conflicts exercised }
      process: breakdown(by: BUSINESS_PROCESS) { key conflicts exercised }
      system: breakdown(by: SYSTEM) { key conflicts exercised }
      user: breakdown(by: USER, first: 2) { key conflicts exercised }
    } } }`);
    expect(r.body.errors).toBeUndefined();
    const b = r.body.data.node;
    // R1: A and C (C exercised); R2: A, B and C (C ran an action of each of R2's functions too).
    expect(b.risk).toEqual([
      { key: 'R2', conflicts: 3, exercised: 1 },
      { key: 'R1', conflicts: 2, exercised: 1 },
    ]);
    expect(b.process).toEqual([
      { key: 'P2P', conflicts: 3, exercised: 1 },
      { key: 'FI', conflicts: 2, exercised: 1 },
    ]);
    // B's cross-system conflict counts on both systems.
    expect(b.system).toEqual([
      { key: 'BD-ONE', conflicts: 5, exercised: 2 },
      { key: 'BD-TWO', conflicts: 1, exercised: 0 },
    ]);
    expect(b.user).toEqual([
      { key: 'A', conflicts: 2, exercised: 0 },
      { key: 'C', conflicts: 2, exercised: 2 },
    ]);

    const bad = await admin.gql(`{ node(id: "${gid}") { ... on AccessAnalysis { breakdown(by: RISK, first: 0) { key } } } }`);
    expect(bad.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});
