// Risk rows given as plain objects (the browser tests' JSON fixtures, the API
// tests' data, demos) turned into risk_rows records: one mapping for
// scripts/seed-rows.ts and api/test/helpers/seed.ts. Uploads do not come
// here: they go through api/src/ingest.
import type { Prisma } from '../generated/prisma/client.js';

const TEXT_FIELDS = [
  'userName',
  'userGroup',
  'riskDescription',
  'ruleId',
  'system',
  'roleProfile',
  'roleProfileDescription',
  'compositeBusinessRole',
  'compositeRoleDescription',
  'function',
  'functionDescription',
  'resource',
  'resourceDescription',
  'resourceExtn',
  'resourceExtnDesc',
  'action',
  'actionDescription',
  'valueFrom',
  'valueTo',
  'businessProcess',
  'businessProcessDescription',
] as const;

export type SeedRow = { userId: string; accessRiskId: string; riskLevel?: 'high' | 'medium' | 'low' } & {
  [K in (typeof TEXT_FIELDS)[number]]?: string;
};

/** A record for prisma.riskRow.createMany: missing fields from `defaults`, else empty; the level label capitalised. */
export function riskRowData(row: SeedRow, defaults: Partial<SeedRow> = {}): Prisma.RiskRowCreateManyInput {
  const level = row.riskLevel ?? defaults.riskLevel ?? 'high';
  const out: Record<string, unknown> = {
    userId: row.userId,
    accessRiskId: row.accessRiskId,
    riskLevel: level,
    riskLevelLabel: level[0]!.toUpperCase() + level.slice(1),
  };
  for (const f of TEXT_FIELDS) out[f] = row[f] ?? defaults[f] ?? '';
  return out as Prisma.RiskRowCreateManyInput;
}
