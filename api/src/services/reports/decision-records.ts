// The evidence's decision records: each decision of a period as one JSON
// record, one per row and stage, in the evidence's order. The close freezes
// them (services/reports/evidence.ts); a period still open is read page by page.
import { Prisma } from '../../generated/prisma/client.js';
import type { DbClient } from '../../core/types.js';
import { holdersTextSql, type Holder } from '../holds.js';
import { recommendationValueSql } from '../review/recommendations.js';

const person = (alias: string) =>
  Prisma.raw(`nullif(trim(coalesce(${alias}.first_name, '') || ' ' || coalesce(${alias}.last_name, '') || ' <' || coalesce(${alias}.email, '') || '>'), '<>')`);
const iso = (expr: string) => Prisma.raw(`to_char(${expr} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/**
 * Each decision of the period as one JSON record, one per row and stage, in a
 * stable order (user, risk, role, row, stage, decision): stage 1's
 * (decisions) and those of a multi-stage period's later stages
 * (stage_decisions). 'Final' is 'yes' on the decision that stands: that of
 * the last stage that decided the row (a row not passed on keeps its earlier
 * stage's); every line of a one-stage period is stage 1 and final.
 * 'Assigned To' is the row's holders (`holders`: holdersOf) as plain conditions per row, as the risk
 * report names them, with no query per row: a close of millions of decisions stays minutes, not hours.
 * `onlyRows`: the records of those rows only (a page of liveDecisionRecords).
 */
export function decisionRecordsSql(periodId: string, holders: Holder[], onlyRows?: string[]): Prisma.Sql {
  const only = onlyRows ? Prisma.sql` AND r.id = ANY(${onlyRows}::bigint[])` : Prisma.empty;
  const rowFields = Prisma.sql`'userId', r.user_id, 'userName', r.user_name, 'userGroup', r.user_group, 'accessRiskId', r.access_risk_id,
             'riskDescription', r.risk_description, 'riskLevel', r.risk_level::text, 'ruleId', r.rule_id, 'system', r.system,
             'roleProfile', r.role_profile, 'compositeBusinessRole', r.composite_business_role`;
  return Prisma.sql`
    SELECT row_number() OVER (ORDER BY x.user_id, x.access_risk_id, x.role_profile, x.row_id, x.stage, x.k)::int AS seq, x.record
      FROM (
    SELECT r.user_id, r.access_risk_id, r.role_profile, r.id AS row_id, 1 AS stage, d.id::text AS k,
           jsonb_build_object(
             'riskRowId', r.id::text, 'reviewerId', d.reviewer_id::text, ${rowFields},
             'decision', d.decision::text, 'comments', d.comments, 'mitigationControl', d.mitigation_control,
             'mitigationExpiresAt', to_char(d.mitigation_expires_at, 'YYYY-MM-DD'),
             'reviewer', ${person('u')}, 'decidedAt', ${iso('d.updated_at')},
             'assignedTo', ${holdersTextSql(holders)},
             'recommendation', ${recommendationValueSql({ periodId, viewerId: Prisma.sql`d.reviewer_id` })},
             'submissionStatus', s.status::text, 'submittedAt', ${iso('s.submitted_at')},
             'approvedBy', CASE WHEN s.status = 'approved' THEN ${person('a')} END,
             'approvedAt', CASE WHEN s.status = 'approved' THEN ${iso('s.reviewed_at')} END,
             'approverComment', c.comment
           ) || jsonb_build_object('stage', 1, 'final', CASE WHEN EXISTS (
                  SELECT 1 FROM stage_decisions sd WHERE sd.period_id = d.period_id AND sd.risk_row_id = d.risk_row_id) THEN 'no' ELSE 'yes' END) AS record
      FROM decisions d
      JOIN risk_rows r ON r.id = d.risk_row_id
      JOIN users u ON u.id = d.reviewer_id
      LEFT JOIN LATERAL (
        SELECT * FROM submissions s WHERE s.period_id = d.period_id AND s.reviewer_id = d.reviewer_id
         ORDER BY s.submitted_at DESC, s.id DESC LIMIT 1
      ) s ON TRUE
      LEFT JOIN users a ON a.id = s.reviewed_by_id
      LEFT JOIN submission_item_comments c ON c.submission_id = s.id AND c.risk_row_id = d.risk_row_id
     WHERE d.period_id = ${periodId}::uuid${only}
    UNION ALL
    SELECT r.user_id, r.access_risk_id, r.role_profile, r.id, sd.stage, sd.reviewer_id::text,
           jsonb_build_object(
             'riskRowId', r.id::text, 'reviewerId', sd.reviewer_id::text, ${rowFields},
             'decision', sd.decision::text, 'comments', sd.comments, 'mitigationControl', sd.mitigation_control,
             'mitigationExpiresAt', to_char(sd.mitigation_expires_at, 'YYYY-MM-DD'),
             'reviewer', ${person('u')}, 'decidedAt', ${iso('sd.updated_at')},
             'submissionStatus', CASE WHEN ss.id IS NOT NULL THEN 'submitted' END, 'submittedAt', ${iso('ss.submitted_at')},
             'stage', sd.stage, 'final', CASE WHEN EXISTS (
                  SELECT 1 FROM stage_decisions later WHERE later.period_id = sd.period_id AND later.risk_row_id = sd.risk_row_id AND later.stage > sd.stage)
                  THEN 'no' ELSE 'yes' END
           )
      FROM stage_decisions sd
      JOIN risk_rows r ON r.id = sd.risk_row_id
      JOIN users u ON u.id = sd.reviewer_id
      LEFT JOIN stage_submissions ss ON ss.period_id = sd.period_id AND ss.stage = sd.stage AND ss.reviewer_id = sd.reviewer_id
     WHERE sd.period_id = ${periodId}::uuid${only}
      ) x`;
}

/** A decided row as the records' order sorts it, as a key a walk can resume after. */
interface RowKey {
  id: string;
  user_id: string;
  access_risk_id: string;
  role_profile: string;
}

/**
 * The decision records of a period still open, in their order, in pages (flat memory): the decided
 * rows are walked in the records' order `keyPage` at a time (each page one top-N sort), and only the
 * records of `page` rows at a time are worked out, never the whole set per page.
 */
export async function* liveDecisionRecords(
  db: DbClient,
  periodId: string,
  holders: Holder[],
  page = 5000,
  keyPage = 50_000,
): AsyncGenerator<Record<string, unknown>[]> {
  for (let last: RowKey | null = null; ;) {
    const after: Prisma.Sql = last
      ? Prisma.sql`AND (r.user_id, r.access_risk_id, r.role_profile, r.id) > (${last.user_id}, ${last.access_risk_id}, ${last.role_profile}, ${last.id}::bigint)`
      : Prisma.empty;
    const keys = await db.$queryRaw<RowKey[]>`
      SELECT r.id::text AS id, r.user_id, r.access_risk_id, r.role_profile FROM risk_rows r
       WHERE r.id IN (SELECT d.risk_row_id FROM decisions d WHERE d.period_id = ${periodId}::uuid
                      UNION SELECT sd.risk_row_id FROM stage_decisions sd WHERE sd.period_id = ${periodId}::uuid) ${after}
       ORDER BY r.user_id, r.access_risk_id, r.role_profile, r.id LIMIT ${keyPage}`;
    for (let i = 0; i < keys.length; i += page) {
      const rows = await db.$queryRaw<{ record: Record<string, unknown> }[]>`
        SELECT x.record FROM (${decisionRecordsSql(
          periodId,
          holders,
          keys.slice(i, i + page).map((k) => k.id),
        )}) x ORDER BY x.seq`;
      yield rows.map((r) => r.record);
    }
    if (keys.length < keyPage) return;
    last = keys[keys.length - 1]!;
  }
}
