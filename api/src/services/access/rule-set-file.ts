// A rule set version as the file it was uploaded as: a .zip of one CSV per
// file (risks, risk_functions, functions, function_actions,
// function_permissions, and business_processes when the version has any), the
// columns of ingest/access/rule-set.ts in their order, every row in its
// original line order with disabled rows too, so the file uploads again as a
// new version with the same counts. Cells are written as stored (UTF-8 with a
// byte-order mark, quoted where they hold a separator, a quote or a line
// break): no formula guard, since an apostrophe would change the values the
// file is read back with. Rule sets are small (thousands of rows), so the
// archive is built in memory.
import yazl from 'yazl';
import type { Caller } from '../caller.js';
import { RULE_SET_FILES } from '../../ingest/access/rule-set.js';
import { getRuleSet } from './rule-sets.js';

type Cell = string | number;
const status = (enabled: boolean) => (enabled ? 'Enabled' : 'Disabled');
const cell = (v: Cell) => {
  const s = String(v);
  return /[",;\t\r\n]|^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
function csv(file: keyof typeof RULE_SET_FILES, rows: Cell[][]): Buffer {
  const header = RULE_SET_FILES[file].map((c) => c.replace(/\?$/, ''));
  return Buffer.from('\uFEFF' + [header, ...rows].map((r) => r.map(cell).join(',') + '\r\n').join(''), 'utf8');
}

/** The version's files, by name. */
export async function ruleSetFiles(caller: Caller, id: string): Promise<{ name: string; version: number; files: { name: string; data: Buffer }[] }> {
  const set = await getRuleSet(caller, id);
  const { prisma } = caller.deps;
  const where = { ruleSetId: id };
  const [risks, riskFunctions, functions, actions, permissions, processes] = await Promise.all([
    prisma.accessRisk.findMany({ where, orderBy: { line: 'asc' } }),
    prisma.accessRiskFunction.findMany({ where, orderBy: { line: 'asc' } }),
    prisma.accessFunction.findMany({ where, orderBy: { line: 'asc' } }),
    prisma.accessFunctionAction.findMany({ where, orderBy: { line: 'asc' } }),
    prisma.accessFunctionPermission.findMany({ where, orderBy: { line: 'asc' } }),
    prisma.accessBusinessProcess.findMany({ where, orderBy: { process: 'asc' } }),
  ]);
  const files = [
    {
      name: 'risks.csv',
      data: csv(
        'risks',
        risks.map((r) => [r.riskId, r.description, r.level, r.type, r.businessProcess, status(r.enabled)]),
      ),
    },
    {
      name: 'risk_functions.csv',
      data: csv(
        'risk_functions',
        riskFunctions.map((r) => [r.riskId, r.functionId]),
      ),
    },
    {
      name: 'functions.csv',
      data: csv(
        'functions',
        functions.map((f) => [f.functionId, f.description, f.businessProcess, f.scope]),
      ),
    },
    {
      name: 'function_actions.csv',
      data: csv(
        'function_actions',
        actions.map((a) => [a.functionId, a.system, a.action, a.description, status(a.enabled)]),
      ),
    },
    {
      name: 'function_permissions.csv',
      data: csv(
        'function_permissions',
        permissions.map((p) => [p.functionId, p.system, p.action, p.object, p.field, p.valueFrom, p.valueTo, status(p.enabled)]),
      ),
    },
  ];
  if (processes.length)
    files.push({
      name: 'business_processes.csv',
      data: csv(
        'business_processes',
        processes.map((p) => [p.process, p.description]),
      ),
    });
  return { name: set.name, version: set.version, files };
}

/** The files as a .zip stream (yazl: the writing half of yauzl, which reads every uploaded .zip). */
export function zipArchive(files: { name: string; data: Buffer }[]): NodeJS.ReadableStream {
  const zip = new yazl.ZipFile();
  for (const f of files) zip.addBuffer(f.data, f.name);
  zip.end();
  return zip.outputStream;
}
