-- Issue 13 point 7: a reviewer's own dashboard trend from counts kept per
-- (period, reviewer, day) instead of their decisions counted per request.
-- reviewer_trend_days holds, for each (period, reviewer) whose days have been
-- worked out (reviewer_trend_periods, stamped with the data and criteria
-- versions they were worked out at), per UTC day: how many live rows the
-- reviewer sees they decided in the period with their decision last changed
-- that day, retained (any decision but 'remove') or removed.
-- services/trend-days.ts is the one home of the rule.
--
-- How it stays right:
-- - the live rows (upload, append, purge) or what the reviewer sees (criteria,
--   items moved: criteria_version) change: the stamp no longer matches
--   risk_data_version, and the next read counts live and refreshes the
--   reviewer's days in the background (services/trend-days.ts);
-- - a decision inserted, updated or deleted moves between days in the same
--   statement (decisions_reviewer_trend_days below). A reviewer has one
--   decision per row and period, so its old row is taken off its day and its
--   new row added. The trigger does not evaluate what the reviewer sees: a
--   reviewer decides only rows they see (services/decisions.ts checks it in
--   the writing transaction), and what they see stays as it was until the
--   stamp is stale; a refresh that finds decisions of the reviewer on live
--   rows they no longer see marks the stamp not exact (counted live until the
--   next change of versions). Decisions written for a reviewer on rows they
--   may not see (mitigations carried into a new period) are written in the
--   transaction that creates the period, before any stamp of it can exist;
--   a replace's decisions carried over change the data version.
CREATE TABLE "reviewer_trend_periods" (
    "period_id" UUID NOT NULL,
    "reviewer_id" UUID NOT NULL,
    "data_version" BIGINT NOT NULL,
    "criteria_version" BIGINT NOT NULL,
    "exact" BOOLEAN NOT NULL,
    "refreshed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "reviewer_trend_periods_pkey" PRIMARY KEY ("period_id", "reviewer_id")
);
ALTER TABLE "reviewer_trend_periods" ADD CONSTRAINT "reviewer_trend_periods_period_id_fkey" FOREIGN KEY ("period_id") REFERENCES "review_periods"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "reviewer_trend_periods" ADD CONSTRAINT "reviewer_trend_periods_reviewer_id_fkey" FOREIGN KEY ("reviewer_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "reviewer_trend_days" (
    "period_id" UUID NOT NULL,
    "reviewer_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "retained" INTEGER NOT NULL DEFAULT 0,
    "removed" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "reviewer_trend_days_pkey" PRIMARY KEY ("period_id", "reviewer_id", "day")
);
ALTER TABLE "reviewer_trend_days" ADD CONSTRAINT "reviewer_trend_days_period_id_fkey" FOREIGN KEY ("period_id") REFERENCES "review_periods"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "reviewer_trend_days" ADD CONSTRAINT "reviewer_trend_days_reviewer_id_fkey" FOREIGN KEY ("reviewer_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The statement's old rows are taken off their days (n = -1) and its new rows
-- added (n = 1), for the (period, reviewer) pairs kept, on live rows only,
-- passed column by column (a transition table's rows are records). The caller
-- holds the trend's lock on each period.
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

-- Takes the trend's lock on each period touched first (as trend_days_move
-- does), so a refresh of the period's reviewers and a writer go in turn: the
-- statements after the lock see a stamp committed meanwhile, and a refresh
-- waiting for the lock sees this statement's decisions. Only the rows of kept
-- (period, reviewer) pairs are passed on (none while no reviewer's days are
-- kept).
CREATE OR REPLACE FUNCTION "decisions_reviewer_trend_days"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  p UUID;
BEGIN
  IF TG_OP = 'DELETE' THEN
    FOR p IN SELECT DISTINCT o."period_id" FROM old_rows o ORDER BY 1 LOOP
      PERFORM pg_advisory_xact_lock(913014, hashtext(p::text));
    END LOOP;
  ELSE
    -- (an update moving a decision to another period is not done: old and new periods are the same)
    FOR p IN SELECT DISTINCT n."period_id" FROM new_rows n ORDER BY 1 LOOP
      PERFORM pg_advisory_xact_lock(913014, hashtext(p::text));
    END LOOP;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM "reviewer_trend_periods") THEN RETURN NULL; END IF;
  IF TG_OP = 'INSERT' THEN
    PERFORM "reviewer_trend_days_move"(a."p", a."v", a."r", a."t", a."d", a."n")
       FROM (SELECT array_agg(x."period_id") AS "p", array_agg(x."reviewer_id") AS "v", array_agg(x."risk_row_id") AS "r",
                    array_agg(x."updated_at") AS "t", array_agg(x."decision"::text) AS "d", array_agg(1) AS "n"
               FROM new_rows x WHERE (x."period_id", x."reviewer_id") IN (SELECT s."period_id", s."reviewer_id" FROM "reviewer_trend_periods" s)) a
      WHERE a."p" IS NOT NULL;
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM "reviewer_trend_days_move"(a."p", a."v", a."r", a."t", a."d", a."n")
       FROM (SELECT array_agg(x."period_id") AS "p", array_agg(x."reviewer_id") AS "v", array_agg(x."risk_row_id") AS "r",
                    array_agg(x."updated_at") AS "t", array_agg(x."decision") AS "d", array_agg(x."n") AS "n"
               FROM (SELECT n."period_id", n."reviewer_id", n."risk_row_id", n."updated_at", n."decision"::text AS "decision", 1 AS "n" FROM new_rows n
                     UNION ALL
                     SELECT o."period_id", o."reviewer_id", o."risk_row_id", o."updated_at", o."decision"::text, -1 FROM old_rows o) x
              WHERE (x."period_id", x."reviewer_id") IN (SELECT s."period_id", s."reviewer_id" FROM "reviewer_trend_periods" s)) a
      WHERE a."p" IS NOT NULL;
  ELSE
    PERFORM "reviewer_trend_days_move"(a."p", a."v", a."r", a."t", a."d", a."n")
       FROM (SELECT array_agg(x."period_id") AS "p", array_agg(x."reviewer_id") AS "v", array_agg(x."risk_row_id") AS "r",
                    array_agg(x."updated_at") AS "t", array_agg(x."decision"::text) AS "d", array_agg(-1) AS "n"
               FROM old_rows x WHERE (x."period_id", x."reviewer_id") IN (SELECT s."period_id", s."reviewer_id" FROM "reviewer_trend_periods" s)) a
      WHERE a."p" IS NOT NULL;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "decisions_reviewer_trend_days_insert" AFTER INSERT ON "decisions"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "decisions_reviewer_trend_days"();
CREATE TRIGGER "decisions_reviewer_trend_days_update" AFTER UPDATE ON "decisions"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "decisions_reviewer_trend_days"();
CREATE TRIGGER "decisions_reviewer_trend_days_delete" AFTER DELETE ON "decisions"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "decisions_reviewer_trend_days"();
