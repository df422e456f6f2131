-- The trend per reviewer (reviewer_trend_days), kept for the (period, reviewer)
-- pairs listed in reviewer_trend_periods. The statement's old rows are taken off
-- their days (n = -1) and its new rows added (n = 1), for the pairs kept, on live
-- rows only, passed column by column (a transition table's rows are records). The
-- caller holds the trend's lock on each period.
CREATE OR REPLACE FUNCTION "reviewer_trend_days_move"("m_periods" UUID[], "m_reviewers" UUID[], "m_rows" BIGINT[], "m_at" TIMESTAMPTZ[], "m_decisions" TEXT[], "m_n" INT[])
  RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "reviewer_trend_days" ("period_id", "reviewer_id", "day", "retained", "removed")
  SELECT m."period_id", m."reviewer_id", (m."updated_at" AT TIME ZONE 'UTC')::date,
         coalesce(sum(m."n") FILTER (WHERE m."decision" <> 'remove'), 0), coalesce(sum(m."n") FILTER (WHERE m."decision" = 'remove'), 0)
    FROM unnest("m_periods", "m_reviewers", "m_rows", "m_at", "m_decisions", "m_n") m("period_id", "reviewer_id", "risk_row_id", "updated_at", "decision", "n")
    JOIN "risk_rows" r ON r."id" = m."risk_row_id"
   WHERE (m."period_id", m."reviewer_id") IN (SELECT s."period_id", s."reviewer_id" FROM "reviewer_trend_periods" s)
     AND r."id" <= (SELECT greatest(v."max_unattached_row_id", coalesce((SELECT max(u."max_row_id") FROM "uploads" u WHERE u."live"), 0)) FROM "risk_data_version" v WHERE v."id" = 1)
     AND (r."upload_id" IS NULL OR r."upload_id" IN (SELECT u."id" FROM "uploads" u WHERE u."live"))
     -- (not a period or reviewer being deleted: their decisions go with them)
     AND m."period_id" IN (SELECT "id" FROM "review_periods") AND m."reviewer_id" IN (SELECT "id" FROM "users")
   GROUP BY 1, 2, 3
  ON CONFLICT ("period_id", "reviewer_id", "day") DO UPDATE
    SET "retained" = "reviewer_trend_days"."retained" + EXCLUDED."retained",
        "removed" = "reviewer_trend_days"."removed" + EXCLUDED."removed";
END $$;
