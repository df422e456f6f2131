// Incremental re-analysis: after a new extract of one system, a run of the
// same rule set version recomputes only the users it touches, says how many,
// and still equals a full run (the same rows, numbered alike) and the plain
// implementation (oracle.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, rowText, type Engine } from './support/helpers.js';
import { oracle } from './support/oracle.js';
import { generateEstate, generateRuleSet, type Estate } from '../../../scripts/access-estate.js';

const USERS = 40;
const AS_OF = '2026-06-30';
let e: Engine;
const rules = generateRuleSet({ users: USERS, seed: 5 });
const estates: Record<string, Estate> = { PRD: generateEstate('PRD', { users: USERS, seed: 5 }), QAS: generateEstate('QAS', { users: USERS / 2, seed: 5 }) };
let ruleSetId = '';

beforeAll(async () => {
  e = await engine();
  ruleSetId = (await e.ruleSet(rules)).id;
  for (const [system, x] of Object.entries(estates)) expect((await e.extract(system, x)).status).toBe('completed');
  const first = await e.analyse(ruleSetId, AS_OF);
  expect(first.run.baseRunId).toBeNull();
  expect(first.run.recomputedUsers).toBeGreaterThan(USERS / 2);
}, 300_000);
afterAll(async () => e?.close());

type Got = Awaited<ReturnType<Engine['analyse']>>;
const numbered = (r: Got) => r.rows.map((x) => `${x.rowNo} ${rowText(x)} ${x.executionCount ?? ''}`);
const conflictsOf = (r: Got) => r.conflicts.map((c) => `${c.userId} ${c.riskId} ${c.exercised}`);

/** Loads a changed PRD, runs the rule set again and a fresh copy of it (a full run), and compares both with the oracle. */
async function afterChange(change: (x: Estate) => void) {
  change(estates.PRD!);
  expect((await e.extract('PRD', estates.PRD!)).status).toBe('completed');
  const previous = await e.deps.prisma.accessAnalysisRun.findFirstOrThrow({ where: { ruleSetId, status: 'completed' }, orderBy: { startedAt: 'desc' } });
  const incremental = await e.analyse(ruleSetId, AS_OF);
  // A version never run before has no previous run to build on: a full run.
  const full = await e.analyse((await e.ruleSet(rules, `Full ${Date.now()}`)).id, AS_OF);
  expect(incremental.run.errorMessage).toBeNull();
  expect(incremental.run.baseRunId).toBe(previous.id);
  expect(full.run.baseRunId).toBeNull();
  expect(numbered(incremental)).toEqual(numbered(full));
  expect(conflictsOf(incremental)).toEqual(conflictsOf(full));
  const want = oracle(rules, estates, AS_OF);
  expect(incremental.rows.map(rowText).sort()).toEqual(want.rows.map(rowText).sort());
  return { incremental, full };
}

const holdersOf = (x: Estate, role: string) => new Set(x.AGR_USERS!.filter((a) => a.AGR_NAME === role).map((a) => a.UNAME));

describe('incremental re-analysis', () => {
  it("after one role's authorizations change, recomputes its holders only and equals a full run", async () => {
    // Z_S0003 now grants every transaction and every org level: its holders gain conflicts.
    const { incremental, full } = await afterChange((x) =>
      x.AGR_1251!.push(
        ...['S_TCODE TCD', 'F_BKPF_BUK BUKRS', 'F_BKPF_BUK ACTVT', 'M_BEST_EKO EKORG', 'M_BEST_EKO ACTVT'].map((of) => {
          const [object, field] = of.split(' ') as [string, string];
          return { AGR_NAME: 'Z_S0003', OBJECT: object, AUTH: `${object.slice(0, 6)}-ALL`, FIELD: field, LOW: '*', HIGH: '', DELETED: '' };
        }),
      ),
    );
    expect(incremental.run.added).toBeGreaterThan(0);
    expect(incremental.run.recomputedUsers).toBeGreaterThan(0);
    expect(incremental.run.recomputedUsers).toBeLessThan(full.run.recomputedUsers!);
    const composites = new Set(estates.PRD!.AGR_AGRS!.filter((k) => k.CHILD_AGR === 'Z_S0003').map((k) => k.AGR_NAME));
    const holders = new Set(estates.PRD!.AGR_USERS!.filter((a) => a.AGR_NAME === 'Z_S0003' || composites.has(a.AGR_NAME!)).map((a) => a.UNAME));
    expect(incremental.run.recomputedUsers).toBeLessThanOrEqual(holders.size);
  }, 300_000);

  it("after a user's lock, recomputes that user alone and drops their conflicts", async () => {
    const before = await e.deps.prisma.accessConflict.findFirstOrThrow({
      where: { run: { ruleSetId }, userId: { startsWith: 'U' } },
      orderBy: { userId: 'asc' },
    });
    const { incremental } = await afterChange((x) => {
      x.USR02!.find((u) => u.BNAME === before.userId)!.UFLAG = '64';
    });
    // Locked on PRD, still analysed on QAS: their PRD-only conflicts go.
    expect(incremental.run.recomputedUsers).toBe(1);
    expect(incremental.rows.some((r) => r.userId === before.userId && r.system === 'PRD')).toBe(false);
  }, 300_000);

  it("after a composite's single roles change, recomputes the composite's holders and equals a full run", async () => {
    const { incremental } = await afterChange((x) => x.AGR_AGRS!.push({ AGR_NAME: 'Z_C001', CHILD_AGR: 'Z_S0003' }));
    expect(incremental.run.recomputedUsers).toBeGreaterThan(0);
    expect(incremental.run.recomputedUsers).toBeLessThanOrEqual(holdersOf(estates.PRD!, 'Z_C001').size);
  }, 300_000);

  it('after the same extract again, recomputes no one and copies the previous run', async () => {
    const { incremental } = await afterChange(() => {});
    expect(incremental.run.recomputedUsers).toBe(0);
    expect(incremental.run.added).toBe(0);
    expect(incremental.run.removed).toBe(0);
  }, 300_000);
});
