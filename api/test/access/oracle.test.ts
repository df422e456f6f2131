// The engine's rows equal, row for row, those of a plain second
// implementation (oracle.ts) on generated estates of two systems.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, rowText, type Engine } from './support/helpers.js';
import { oracle } from './support/oracle.js';
import { generateEstate, generateRuleSet } from '../../../scripts/access-estate.js';

let e: Engine;
beforeAll(async () => {
  e = await engine();
});
afterAll(async () => e?.close());

const USERS = Number(process.env.ACCESS_ORACLE_USERS ?? 40);

describe('the engine against a plain implementation', () => {
  it(`gives the same conflicts and rows on generated estates (${USERS} users per system, two systems)`, async () => {
    const rules = generateRuleSet({ users: USERS, seed: 3 });
    const estates = { PRD: generateEstate('PRD', { users: USERS, seed: 3 }), QAS: generateEstate('QAS', { users: Math.floor(USERS / 2), seed: 3 }) };
    const set = await e.ruleSet(rules);
    for (const [system, x] of Object.entries(estates)) expect((await e.extract(system, x)).status).toBe('completed');
    const { run, rows, conflicts } = await e.analyse(set.id, '2026-06-30');
    expect(run.errorMessage).toBeNull();
    const want = oracle(rules, estates, '2026-06-30');
    const key = (r: Parameters<typeof rowText>[0] & { executionCount: bigint | number | null; lastExecutedOn: Date | string | null }) =>
      `${rowText(r)} | ${r.executionCount ?? ''} ${r.lastExecutedOn instanceof Date ? r.lastExecutedOn.toISOString().slice(0, 10) : (r.lastExecutedOn ?? '')}`;
    const got = rows.map(key).sort();
    const expected = want.rows.map(key).sort();
    // A meaningful estate: conflicts of both scopes, rows with and without permissions.
    expect(want.conflicts.length).toBeGreaterThan(50);
    expect(want.rows.some((r) => r.resource !== '')).toBe(true);
    expect(got.length).toBe(expected.length);
    expect(got).toEqual(expected);
    expect(conflicts.map((c) => `${c.userId} ${c.riskId} ${c.exercised}`).sort()).toEqual(
      want.conflicts.map((c) => `${c.userId} ${c.riskId} ${c.exercised}`).sort(),
    );
  }, 600_000);
});
