// Access rule sets: an upload (a .zip of CSV files, ingest/access/rule-set.ts)
// read and checked whole, then written in one transaction as a new version
// of its name (the first version of a name is active; a later one waits to
// be activated, so a draft can be tried before it counts). One version of a
// name is active at a time.
import type { Caller } from '../caller.js';
import { actorLabel, recordAudit } from '../../core/audit.js';
import { NotFoundError, ValidationError } from '../../core/errors.js';
import { IngestError } from '../../ingest/csv.js';
import { readRuleSet } from '../../ingest/access/rule-set.js';
import type { ByteSource } from '../../db/storage/index.js';

export interface RuleSetSummary {
  id: string;
  name: string;
  version: number;
  active: boolean;
  risks: number;
  functions: number;
  /** Enabled function actions. */
  actions: number;
  /** Enabled function permissions. */
  permissions: number;
  uploadedBy: string | null;
  uploadedAt: Date;
}

export const MAX_RULE_SET_NAME = 200;

const SUMMARY = {
  id: true,
  name: true,
  version: true,
  active: true,
  risks: true,
  functions: true,
  actions: true,
  permissions: true,
  uploadedBy: true,
  uploadedAt: true,
} as const;

/** The name a rule set gets from its file when none is given: the file's name without .zip. */
function nameOf(given: string | undefined, originalName: string): string {
  const name = (given ?? '').trim() || originalName.replace(/\.zip$/i, '').trim();
  if (!name) throw new ValidationError('name: a rule set needs a name', 'name');
  if (name.length > MAX_RULE_SET_NAME) throw new ValidationError(`name: at most ${MAX_RULE_SET_NAME} characters`, 'name');
  return name;
}

/** Reads, checks and stores a rule set's .zip as the next version of its name. */
export async function uploadRuleSet(caller: Caller, file: string | ByteSource, originalName: string, givenName?: string): Promise<RuleSetSummary> {
  const {
    deps: { prisma },
    actor,
  } = caller;
  const name = nameOf(givenName, originalName);
  let data;
  try {
    data = await readRuleSet(file);
  } catch (e) {
    if (e instanceof IngestError) throw new ValidationError(e.message, 'file');
    throw e;
  }
  const counts = {
    risks: data.risks.length,
    functions: data.functions.length,
    actions: data.actions.filter((a) => a.enabled).length,
    permissions: data.permissions.filter((p) => p.enabled).length,
  };
  const set = await prisma.$transaction(
    async (tx) => {
      // One upload of a name at a time: versions are numbered without gaps or clashes.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${'access-rule-set:' + name}))`;
      const last = await tx.accessRuleSet.findFirst({ where: { name }, orderBy: { version: 'desc' }, select: { version: true } });
      const set = await tx.accessRuleSet.create({
        data: { name, version: (last?.version ?? 0) + 1, active: !last, uploadedBy: actorLabel(actor), ...counts },
        select: SUMMARY,
      });
      const ruleSetId = set.id;
      const withSet = <T>(rows: T[]) => rows.map((r) => ({ ...r, ruleSetId }));
      await tx.accessRisk.createMany({ data: withSet(data.risks) });
      await tx.accessFunction.createMany({ data: withSet(data.functions) });
      await tx.accessRiskFunction.createMany({ data: withSet(data.riskFunctions) });
      await tx.accessFunctionAction.createMany({ data: withSet(data.actions) });
      await tx.accessFunctionPermission.createMany({ data: withSet(data.permissions) });
      await tx.accessBusinessProcess.createMany({ data: withSet(data.processes) });
      await recordAudit(tx, actor, {
        action: 'access.rule_set.uploaded',
        entityType: 'access_rule_set',
        entityId: ruleSetId,
        after: { name, version: set.version, ...counts },
      });
      return set;
    },
    { timeout: 120_000 },
  );
  // Fresh statistics: the analysis plans its joins on them.
  await prisma.$executeRawUnsafe('ANALYZE access_risks, access_functions, access_risk_functions, access_function_actions, access_function_permissions');
  return set;
}

export async function listRuleSets(caller: Caller): Promise<RuleSetSummary[]> {
  return caller.deps.prisma.accessRuleSet.findMany({ orderBy: [{ name: 'asc' }, { version: 'desc' }], select: SUMMARY });
}

export async function getRuleSet(caller: Caller, id: string): Promise<RuleSetSummary> {
  const set = UUID.test(id) ? await caller.deps.prisma.accessRuleSet.findUnique({ where: { id }, select: SUMMARY }) : null;
  if (!set) throw new NotFoundError(`No rule set with id ${id}`);
  return set;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Makes a version the active one of its name. */
export async function activateRuleSet(caller: Caller, id: string): Promise<RuleSetSummary> {
  const set = await getRuleSet(caller, id);
  return caller.deps.prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${'access-rule-set:' + set.name}))`;
    await tx.accessRuleSet.updateMany({ where: { name: set.name, active: true, NOT: { id } }, data: { active: false } });
    const after = await tx.accessRuleSet.update({ where: { id }, data: { active: true }, select: SUMMARY });
    await recordAudit(tx, caller.actor, {
      action: 'access.rule_set.activated',
      entityType: 'access_rule_set',
      entityId: id,
      after: { name: set.name, version: set.version },
    });
    return after;
  });
}
