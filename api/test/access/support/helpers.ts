// The engine's services on a migrated database of their own: a rule set and
// estates written as the .zip files users upload, loaded, and analysed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '../../../src/config.js';
import type { JobQueue } from '../../../src/db/queue.js';
import { localStore } from '../../../src/db/storage/index.js';
import { receiveFile } from '../../../src/services/uploads/uploads.js';
import { Readable } from 'node:stream';
import { migratedDatabase } from '../../helpers/database.js';
import { callerFor } from '../../helpers/caller.js';
import { uploadRuleSet } from '../../../src/services/access/rule-sets.js';
import { loadExtract, startExtract } from '../../../src/services/access/extracts.js';
import { runAnalysis, startAnalysis } from '../../../src/services/access/analysis.js';
import { RUN_CONFLICTS, RUN_ROWS } from '../../../src/services/access/incremental.js';
import type { AccessConflict, AccessConflictRow } from '../../../src/generated/prisma/client.js';
import { tablesZip, type Estate, type Row, type RuleSetFiles, type ZipOptions } from '../../../../scripts/access-estate.js';

/** The tests run each job themselves (loadExtract, runAnalysis): the queue takes what is sent and runs nothing. */
const NO_JOBS = { boss: { send: () => Promise.resolve(null) } } as unknown as JobQueue;

export async function engine() {
  const handle = await migratedDatabase();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'access-test-'));
  const deps = { prisma: handle.db.prisma, db: handle.db, config: {} as Config, storage: localStore(dir), jobs: NO_JOBS };
  const admin = await deps.prisma.user.create({ data: { email: 'engine.admin@example.com', firstName: 'Engine', lastName: 'Admin', role: 'admin' } });
  const caller = callerFor(deps, admin);
  let n = 0;
  const runResults = async (id: string) => {
    const rows = await deps.prisma.$queryRawUnsafe<AccessConflictRow[]>(
      `SELECT m.run_id::text AS "runId", r.row_no + m.row_shift AS "rowNo", r.user_id AS "userId", r.risk_id AS "riskId", r.rule_id AS "ruleId",
              r.function_id AS "functionId", r.system, r.action, r.role, r.composite, r.resource, r.resource_extn AS "resourceExtn",
              r.value_from AS "valueFrom", r.value_to AS "valueTo", r.execution_count AS "executionCount", r.last_executed_on AS "lastExecutedOn"
         FROM ${RUN_ROWS} WHERE m.run_id = $1::uuid ORDER BY 2`,
      id,
    );
    const conflicts = await deps.prisma.$queryRawUnsafe<AccessConflict[]>(
      `SELECT m.run_id::text AS "runId", c.user_id AS "userId", c.risk_id AS "riskId", c.exercised FROM ${RUN_CONFLICTS} WHERE m.run_id = $1::uuid ORDER BY 2, 3`,
      id,
    );
    return { rows, conflicts };
  };
  const write = async (buf: Buffer) => {
    const file = path.join(dir, `in-${n++}.zip`);
    fs.writeFileSync(file, buf);
    return file;
  };
  /** A .zip received as an upload is (streamed into the store). */
  const receive = async (buf: Buffer, originalName: string) => receiveFile(deps.storage, Readable.from([buf]), originalName);
  return {
    deps,
    caller,
    db: handle.db,
    write,
    receive,
    async ruleSet(files: RuleSetFiles | Record<string, Row[] | string>, name = 'Rules', opts: ZipOptions = {}) {
      return uploadRuleSet(caller, await write(await tablesZip(files, opts)), 'rules.zip', name);
    },
    /** Loads an extract; its row (status completed or failed). */
    async extract(system: string, estate: Estate | Record<string, Row[] | string>, opts: ZipOptions = {}) {
      const { id } = await startExtract(caller, system, await receive(await tablesZip(estate, opts), `${system}.zip`));
      await loadExtract(deps, id);
      return deps.prisma.accessExtract.findUniqueOrThrow({ where: { id } });
    },
    async analyse(ruleSetId: string, asOf = '2026-06-30', systems?: string[]) {
      const { id } = await startAnalysis(caller, { ruleSetId, asOf, systems });
      await runAnalysis(deps, id);
      const run = await deps.prisma.accessAnalysisRun.findUniqueOrThrow({ where: { id } });
      return { run, ...(await runResults(id)) };
    },
    /** A run's rows (numbered as the run shows them) and conflicts, read through its users as every reader does. */
    runResults,
    async close() {
      await handle.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
export type Engine = Awaited<ReturnType<typeof engine>>;

/** A row as the tests compare it: what reviewers see. */
export function rowText(r: {
  userId: string;
  riskId: string;
  ruleId: string;
  functionId: string;
  system: string;
  action: string;
  role: string;
  composite: string;
  resource: string;
  resourceExtn: string;
  valueFrom: string;
  valueTo: string;
}): string {
  return [r.userId, r.riskId, r.ruleId, r.functionId, r.system, r.action, r.role, r.composite || '-', r.resource, r.resourceExtn, r.valueFrom, r.valueTo]
    .join(' ')
    .trimEnd();
}
