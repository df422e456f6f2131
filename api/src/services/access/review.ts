// A run's conflicts enter the review as an upload would: its rows (the
// conflicts.csv file, in the risk report's columns) are handed to the upload
// path, append or replace, so assignments, the queue, decisions (carried over
// on replace exactly as for a replaced file), evidence and remediation work on
// them unchanged. The upload's name says which run it came from. A test run
// (a version that is not active) never reaches the review: 409.
import { Readable } from 'node:stream';
import { z } from 'zod';
import type { Upload } from '../../generated/prisma/client.js';
import type { Caller } from '../caller.js';
import { parseOrThrow } from '../../core/validation.js';
import { acceptUpload, discardReceived, receiveFile } from '../uploads/uploads.js';
import { completedAnalysis, conflictsCsv } from './conflicts.js';
import { getRuleSet } from './rule-sets.js';
import { ConflictError } from '../../core/errors.js';

export const TEST_RUN_REFUSED =
  'This is a test run of a rule set version that is not active: it cannot be sent to the review. Activate the version and run it again to review its conflicts';

export const sendToReviewSchema = z.object({
  mode: z.enum(['append', 'replace'], { error: 'mode must be append or replace' }),
});
export type SendToReviewInput = z.input<typeof sendToReviewSchema>;

/** The name the upload history shows: the rule set version, the analysis date and the run. */
export function runUploadName(run: { id: string; asOf: Date }, ruleSet: { name: string; version: number }): string {
  return `Access analysis ${ruleSet.name} v${ruleSet.version} on ${run.asOf.toISOString().slice(0, 10)} (run ${run.id.slice(0, 8)}).csv`;
}

/** Queues the load of a completed run's conflicts into the review; 409 while it runs, when it failed, or for a test run. */
export async function sendToReview(caller: Caller, runId: string, input: SendToReviewInput): Promise<Upload> {
  const { mode } = parseOrThrow(sendToReviewSchema, input);
  const run = await completedAnalysis(caller, runId);
  if (run.test) throw new ConflictError(TEST_RUN_REFUSED);
  const ruleSet = await getRuleSet(caller, run.ruleSetId);
  const file = await receiveFile(caller.deps.storage, Readable.from(conflictsCsv(caller, run.id)), runUploadName(run, ruleSet));
  try {
    return await acceptUpload(caller, file, { uploadMode: mode, emailNotification: false });
  } finally {
    // Handed over (moved) or refused: nothing of it stays in the incoming folder.
    await discardReceived(caller.deps.storage, file);
  }
}
