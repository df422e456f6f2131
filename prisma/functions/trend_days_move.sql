-- The dashboard trend: trend_days holds, for each period whose days have been
-- worked out (trend_periods), per UTC day, how many live rows have their latest
-- decision of the period (newest updated_at, then id) made that day, retained
-- (any decision but 'remove') or removed; services/kept/trend-days.ts is the one home
-- of the rule and refreshes a period whose stamp is stale. A decision inserted,
-- updated or deleted moves its row's latest decision between days in the same
-- statement: the latest before the statement is taken off its day, the latest
-- after it added. Writers of one period take an advisory lock on it first, so two
-- transactions deciding the same row never count it from the same 'before'.
--
-- new_ids: the ids of the statement's new rows (inserted or updated); old_*:
-- its old rows (updated or deleted), column by column (a transition table's
-- rows are records). Runs for every statement on decisions. The ids are
-- matched through IN (SELECT unnest(…)), a hashed set: `<> ALL(array)` would
-- compare each decision with every new id (a period closed with a default on
-- 1M rows: 10^12 comparisons).
CREATE OR REPLACE FUNCTION "trend_days_move"("new_ids" UUID[], "old_ids" UUID[], "old_periods" UUID[], "old_rows" BIGINT[], "old_at" TIMESTAMPTZ[], "old_decisions" TEXT[])
  RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  p UUID;
BEGIN
  -- The periods touched, locked in order (services/trend-days.ts takes the same lock to refresh).
  FOR p IN SELECT DISTINCT x FROM (
      SELECT d."period_id" AS x FROM "decisions" d WHERE d."id" IN (SELECT unnest("new_ids"))
      UNION SELECT o."period_id" FROM unnest("old_ids", "old_periods", "old_rows", "old_at", "old_decisions") o("id", "period_id", "risk_row_id", "updated_at", "decision")) y ORDER BY 1 LOOP
    PERFORM pg_advisory_xact_lock(913014, hashtext(p::text));
  END LOOP;
  -- After the lock each statement sees what other writers committed meanwhile.
  WITH "touched" AS (
    SELECT DISTINCT x."period_id", x."risk_row_id" FROM (
      SELECT d."period_id", d."risk_row_id" FROM "decisions" d WHERE d."id" IN (SELECT unnest("new_ids"))
      UNION ALL SELECT o."period_id", o."risk_row_id" FROM unnest("old_ids", "old_periods", "old_rows", "old_at", "old_decisions") o("id", "period_id", "risk_row_id", "updated_at", "decision")) x
     WHERE x."period_id" IN (SELECT "period_id" FROM "trend_periods")
       -- (not a period being deleted: its decisions go with it)
       AND x."period_id" IN (SELECT "id" FROM "review_periods")
  ), "live" AS (
    SELECT t.* FROM "touched" t JOIN "risk_rows" r ON r."id" = t."risk_row_id"
     WHERE r."id" <= (SELECT greatest(v."max_unattached_row_id", coalesce((SELECT max(u."max_row_id") FROM "uploads" u WHERE u."live"), 0)) FROM "risk_data_version" v WHERE v."id" = 1)
       AND (r."upload_id" IS NULL OR r."upload_id" IN (SELECT u."id" FROM "uploads" u WHERE u."live"))
  ), "after" AS (
    SELECT DISTINCT ON (d."period_id", d."risk_row_id") d."period_id", d."updated_at", d."decision"::text AS "decision"
      FROM "decisions" d JOIN "live" l ON l."period_id" = d."period_id" AND l."risk_row_id" = d."risk_row_id"
     ORDER BY d."period_id", d."risk_row_id", d."updated_at" DESC, d."id" DESC
  ), "before" AS (
    SELECT DISTINCT ON (b."period_id", b."risk_row_id") b."period_id", b."updated_at", b."decision" FROM (
      SELECT d."period_id", d."risk_row_id", d."id", d."updated_at", d."decision"::text
        FROM "decisions" d JOIN "live" l ON l."period_id" = d."period_id" AND l."risk_row_id" = d."risk_row_id"
       WHERE d."id" NOT IN (SELECT unnest("new_ids"))
      UNION ALL
      SELECT o."period_id", o."risk_row_id", o."id", o."updated_at", o."decision"
        FROM unnest("old_ids", "old_periods", "old_rows", "old_at", "old_decisions") o("id", "period_id", "risk_row_id", "updated_at", "decision") JOIN "live" l ON l."period_id" = o."period_id" AND l."risk_row_id" = o."risk_row_id") b
     ORDER BY b."period_id", b."risk_row_id", b."updated_at" DESC, b."id" DESC
  )
  INSERT INTO "trend_days" ("period_id", "day", "retained", "removed")
  SELECT m."period_id", (m."updated_at" AT TIME ZONE 'UTC')::date,
         coalesce(sum(m."n") FILTER (WHERE m."decision" <> 'remove'), 0), coalesce(sum(m."n") FILTER (WHERE m."decision" = 'remove'), 0)
    FROM (SELECT a."period_id", a."updated_at", a."decision", 1 AS "n" FROM "after" a
          UNION ALL SELECT b."period_id", b."updated_at", b."decision", -1 FROM "before" b) m
   GROUP BY 1, 2
  ON CONFLICT ("period_id", "day") DO UPDATE
    SET "retained" = "trend_days"."retained" + EXCLUDED."retained",
        "removed" = "trend_days"."removed" + EXCLUDED."removed";
END $$;
