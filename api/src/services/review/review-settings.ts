// The review settings as administrators change them (REST /api/review-settings,
// GraphQL updateReviewSettings): the fallback reviewers, checked to be active
// reviewers, and the owners of each business process, audited; a new set of
// fallback reviewers changes what they see (services/review/coverage.ts reads
// them, services/holds.ts applies them).
import { z } from 'zod';
import { Prisma } from '../../generated/prisma/client.js';
import { ForbiddenError, ValidationError } from '../../core/errors.js';
import { recordAudit } from '../../core/audit.js';
import { parseOrThrow } from '../../core/validation.js';
import { personLabel } from '../../core/people.js';
import { isUuid, type DbClient } from '../../core/types.js';
import { REVIEW_SETTINGS_KEY } from '../holds.js';
import { changingWhatTheySee } from './assignments.js';
import { readReviewSettings, type ReviewSettings } from './coverage.js';
import type { Caller } from '../caller.js';

const MAX_PEOPLE = 50;
const MAX_PROCESSES = 1000;

export function getReviewSettings(caller: Caller): Promise<ReviewSettings> {
  return readReviewSettings(caller.deps.prisma);
}

const userIds = (what: string) =>
  z
    .array(
      z
        .string({ error: `${what} must be user ids` })
        .trim()
        .max(100, `${what} must be user ids`),
      { error: `${what} must be a list of user ids` },
    )
    .max(MAX_PEOPLE, `At most ${MAX_PEOPLE} ${what.toLowerCase()}`);

/** Also the REST edge's body schema (rest/review/review-settings.ts); a field left out keeps its value. */
export const reviewSettingsSchema = z.strictObject(
  {
    fallbackReviewerIds: userIds('Fallback reviewers').optional(),
    processOwners: z
      .record(z.string().trim().min(1, 'A business process needs a name').max(200, 'A business process name is too long'), userIds('Process owners'), {
        error: 'processOwners must map each business process to a list of user ids',
      })
      .refine((o) => Object.keys(o).length <= MAX_PROCESSES, `At most ${MAX_PROCESSES} business processes`)
      .optional(),
  },
  { error: (iss) => (iss.code === 'unrecognized_keys' ? `Unknown review settings: ${iss.keys.join(', ')}` : undefined) },
);
export type ReviewSettingsInput = z.input<typeof reviewSettingsSchema>;

/**
 * The people named must be there and able to review, each refusal naming
 * them: a fallback reviewer an active reviewer (a deactivated one would
 * receive rows nobody then reviews), a process owner an active user.
 */
async function checkPeople(db: DbClient, ids: string[], what: string, field: string, reviewersOnly: boolean): Promise<void> {
  const bad = ids.find((id) => !isUuid(id));
  if (bad !== undefined) throw new ValidationError(`${what} '${bad}' is not a user`, field);
  const found = new Map((await db.user.findMany({ where: { id: { in: ids } } })).map((u) => [u.id, u]));
  for (const id of ids) {
    const u = found.get(id);
    if (!u) throw new ValidationError(`${what} '${id}' is not a user`, field);
    if (!u.isActive) throw new ValidationError(`${what} ${personLabel(u)} is deactivated`, field);
    if (reviewersOnly && u.role !== 'reviewer') throw new ValidationError(`${what} ${personLabel(u)} is not a reviewer: only reviewers review rows`, field);
  }
}

/** Administrators change the review settings, audited; a new set of fallback reviewers changes what they see. */
export async function updateReviewSettings(caller: Caller, input: unknown): Promise<ReviewSettings> {
  const {
    deps: { prisma, jobs },
    actor,
  } = caller;
  if (actor.user.role !== 'admin') throw new ForbiddenError('Only administrators can do this');
  const data = parseOrThrow(reviewSettingsSchema, input ?? {});
  const before = await readReviewSettings(prisma);
  const next: ReviewSettings = {
    fallbackReviewerIds: [...new Set(data.fallbackReviewerIds ?? before.fallbackReviewerIds)],
    processOwners: Object.fromEntries(Object.entries(data.processOwners ?? before.processOwners).map(([bp, ids]) => [bp, [...new Set(ids)]])),
  };
  if (data.fallbackReviewerIds) await checkPeople(prisma, next.fallbackReviewerIds, 'Fallback reviewer', 'fallbackReviewerIds', true);
  for (const [bp, ids] of data.processOwners ? Object.entries(next.processOwners) : []) {
    await checkPeople(prisma, ids, `Owner of business process '${bp}'`, 'processOwners', false);
  }
  const write = (tx: DbClient) =>
    tx.adminSetting.upsert({
      where: { settingKey: REVIEW_SETTINGS_KEY },
      create: {
        settingKey: REVIEW_SETTINGS_KEY,
        settingValue: JSON.stringify(next),
        description: 'Fallback reviewers and process owners',
        updatedById: actor.user.id,
      },
      update: { settingValue: JSON.stringify(next), updatedById: actor.user.id },
    });
  const touched = [...new Set([...before.fallbackReviewerIds, ...next.fallbackReviewerIds])].filter(isUuid);
  const fallbackChanged = JSON.stringify([...before.fallbackReviewerIds].sort()) !== JSON.stringify([...next.fallbackReviewerIds].sort());
  await prisma.$transaction(async (tx) => {
    if (fallbackChanged) await changingWhatTheySee(tx, jobs, touched, () => write(tx));
    else await write(tx);
    await recordAudit(tx, actor, {
      action: 'review_settings.updated',
      entityType: 'ReviewSettings',
      entityId: REVIEW_SETTINGS_KEY,
      before: before as unknown as Prisma.InputJsonValue,
      after: next as unknown as Prisma.InputJsonValue,
    });
  });
  return next;
}
