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

DROP TRIGGER IF EXISTS "decisions_reviewer_trend_days_insert" ON "decisions";
CREATE TRIGGER "decisions_reviewer_trend_days_insert" AFTER INSERT ON "decisions"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "decisions_reviewer_trend_days"();

DROP TRIGGER IF EXISTS "decisions_reviewer_trend_days_update" ON "decisions";
CREATE TRIGGER "decisions_reviewer_trend_days_update" AFTER UPDATE ON "decisions"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "decisions_reviewer_trend_days"();

DROP TRIGGER IF EXISTS "decisions_reviewer_trend_days_delete" ON "decisions";
CREATE TRIGGER "decisions_reviewer_trend_days_delete" AFTER DELETE ON "decisions"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "decisions_reviewer_trend_days"();
