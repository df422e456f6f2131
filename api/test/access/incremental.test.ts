// Incremental re-analysis: after a new extract of one system, a run of the
// same rule set version recomputes only the users it touches, says how many,
// and still equals a full run (the same rows, numbered alike) and the plain
// implementation (oracle.ts). It stores only what it recomputed: the other
// users' conflicts and rows are shared with the run holding them, and every
// reader (conflicts, rows, breakdowns, changes, the CSV) sees the run whole.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engine, rowText, type Engine } from './support/helpers.js';
import { conflictBreakdown, conflictsCsv, countConflicts, listConflicts, rowsOfConflicts } from '../../src/services/access/conflicts.js';
import { changeCounts } from '../../src/services/access/changes.js';
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

/** What readers see of a run, apart from its id: the CSV, the conflicts with their systems and rows (numbered), the breakdowns. */
async function readersOf(runId: string) {
  let csv = '';
  for await (const chunk of conflictsCsv(e.caller, runId)) csv += chunk.toString();
  const page = await listConflicts(e.caller, runId, {}, { limit: 10_000 });
  const rows = await rowsOfConflicts(e.caller, page, 10_000);
  const onPrd = await listConflicts(e.caller, runId, { system: 'PRD', exercised: false }, { limit: 10_000 });
  const afterFirst = page.length > 1 ? await listConflicts(e.caller, runId, {}, { after: [page[0]!.userId, page[0]!.riskId], limit: 3 }) : [];
  const breakdowns = await Promise.all((['risk', 'businessProcess', 'system', 'user'] as const).map((by) => conflictBreakdown(e.caller, runId, by, 1000)));
  const strip = <T extends { runId: string }>(x: T) => ({ ...x, runId: '' });
  return {
    csv,
    conflicts: page.map(strip),
    rows: rows.map((of) => of.map((r) => `${r.rowNo} ${rowText(r)} ${r.executionCount ?? ''}`)),
    onPrd: onPrd.map(strip),
    afterFirst: afterFirst.map(strip),
    count: await countConflicts(e.caller, runId, { exercised: true }),
    breakdowns,
  };
}

describe('runs sharing rows', () => {
  it('a chain of two incremental runs stores only what each recomputed and reads, through every reader, as a full run', async () => {
    // Two changes in a row: a role gains a transaction everywhere, then a user loses every role.
    const first = await afterChange((x) =>
      x.AGR_1251!.push({ AGR_NAME: 'Z_S0011', OBJECT: 'S_TCODE', AUTH: 'T-9', FIELD: 'TCD', LOW: '*', HIGH: '', DELETED: '' }),
    );
    const holder = first.incremental.rows.find((r) => r.system === 'PRD')!.userId;
    const second = await afterChange((x) => {
      x.AGR_USERS = x.AGR_USERS!.filter((a) => a.UNAME !== holder);
    });
    const run = second.incremental.run;
    expect(run.baseRunId).toBe(first.incremental.run.id);
    expect(run.recomputedUsers).toBe(1);
    // Only the recomputed user's rows are stored with the run; it reads every user's.
    const stored = await e.deps.prisma.accessConflictRow.findMany({ where: { runId: run.id }, select: { userId: true } });
    expect([...new Set(stored.map((r) => r.userId))]).toEqual(stored.length ? [holder] : []);
    expect(second.incremental.rows.length).toBeGreaterThan(stored.length + 100);
    expect(await e.deps.prisma.accessConflict.count({ where: { runId: run.id } })).toBeLessThan(run.conflicts);
    // Each user's entry names the run that holds them itself, however long the chain: one lookup.
    const entries = await e.deps.prisma.accessRunUser.findMany({ where: { runId: run.id } });
    expect(entries.length).toBe(run.users);
    const sources = await e.deps.prisma.accessRunUser.findMany({
      where: { OR: entries.map((m) => ({ runId: m.sourceRunId, userId: m.userId })) },
    });
    expect(sources.every((m) => m.sourceRunId === m.runId)).toBe(true);
    expect(sources.length).toBe(entries.length);
    expect(new Set(entries.map((m) => m.sourceRunId)).size).toBeGreaterThan(1);
    // The run's figures, its readers and its changes against its base equal a full run's.
    const full = second.full.run;
    expect({ conflicts: run.conflicts, rows: run.rows, users: run.users, exercised: run.exercised }).toEqual({
      conflicts: full.conflicts,
      rows: full.rows,
      users: full.users,
      exercised: full.exercised,
    });
    expect(await readersOf(run.id)).toEqual(await readersOf(full.id));
    const changes = await changeCounts(e.caller, run);
    expect(changes).toEqual({ previousId: first.incremental.run.id, new: run.added, resolved: run.removed, unchanged: run.conflicts - run.added });
    expect(run.removed).toBeGreaterThan(0);
  }, 300_000);

  it('a run whose rows a later run shares cannot be deleted under it; the runs of a rule set version go together', async () => {
    const later = await e.deps.prisma.accessAnalysisRun.findFirstOrThrow({ where: { ruleSetId, status: 'completed' }, orderBy: { startedAt: 'desc' } });
    const holders = await e.deps.prisma.accessRunUser.findMany({ where: { runId: later.id, NOT: { sourceRunId: later.id } }, distinct: ['sourceRunId'] });
    expect(holders.length).toBeGreaterThan(0);
    const base = holders[0]!.sourceRunId;
    const before = await readersOf(later.id);
    await expect(e.deps.prisma.accessAnalysisRun.delete({ where: { id: base } })).rejects.toThrow(/access_run_users_source_run_id_fkey|foreign key/i);
    expect(await readersOf(later.id)).toEqual(before);
    // Every run of the version goes at once with its rule set version (the shares go with them).
    const runs = await e.deps.prisma.accessAnalysisRun.count({ where: { ruleSetId } });
    expect(runs).toBeGreaterThan(2);
    await e.deps.prisma.accessRuleSet.delete({ where: { id: ruleSetId } });
    expect(await e.deps.prisma.accessAnalysisRun.count({ where: { ruleSetId } })).toBe(0);
    expect(await e.deps.prisma.accessRunUser.count({ where: { OR: [{ runId: later.id }, { sourceRunId: base }] } })).toBe(0);
  }, 300_000);
});
