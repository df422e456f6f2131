-- Counts per item and reviewer (shared_item_decisions) and per reviewer and
-- upload (reviewer_decision_totals). The statement's new rows added (n = 1) and
-- its old rows taken off (n = -1), passed column by column (a transition table's
-- rows are records); not for a period being deleted (its counts go with it).
CREATE OR REPLACE FUNCTION "shared_item_decisions_move"("m_periods" UUID[], "m_reviewers" UUID[], "m_rows" BIGINT[], "m_decisions" TEXT[], "m_n" INT[])
  RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "shared_item_decisions" ("period_id", "reviewer_id", "upload_id", "user_id", "role_profile", "decisions", "removals")
  SELECT m."period_id", m."reviewer_id", coalesce(r."upload_id", '00000000-0000-0000-0000-000000000000'::uuid), r."user_id", r."role_profile",
         sum(m."n"), coalesce(sum(m."n") FILTER (WHERE m."decision" = 'remove'), 0)
    FROM unnest("m_periods", "m_reviewers", "m_rows", "m_decisions", "m_n") m("period_id", "reviewer_id", "risk_row_id", "decision", "n")
    JOIN "risk_rows" r ON r."id" = m."risk_row_id"
   WHERE m."period_id" IN (SELECT "id" FROM "review_periods")
   GROUP BY 1, 2, 3, 4, 5
  ON CONFLICT ("period_id", "reviewer_id", "upload_id", "user_id", "role_profile") DO UPDATE
    SET "decisions" = "shared_item_decisions"."decisions" + EXCLUDED."decisions",
        "removals" = "shared_item_decisions"."removals" + EXCLUDED."removals";
  INSERT INTO "reviewer_decision_totals" ("period_id", "reviewer_id", "upload_id", "decisions", "removals")
  SELECT m."period_id", m."reviewer_id", coalesce(r."upload_id", '00000000-0000-0000-0000-000000000000'::uuid),
         sum(m."n"), coalesce(sum(m."n") FILTER (WHERE m."decision" = 'remove'), 0)
    FROM unnest("m_periods", "m_reviewers", "m_rows", "m_decisions", "m_n") m("period_id", "reviewer_id", "risk_row_id", "decision", "n")
    JOIN "risk_rows" r ON r."id" = m."risk_row_id"
   WHERE m."period_id" IN (SELECT "id" FROM "review_periods")
   GROUP BY 1, 2, 3
  ON CONFLICT ("period_id", "reviewer_id", "upload_id") DO UPDATE
    SET "decisions" = "reviewer_decision_totals"."decisions" + EXCLUDED."decisions",
        "removals" = "reviewer_decision_totals"."removals" + EXCLUDED."removals";
END $$;
