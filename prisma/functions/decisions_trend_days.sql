-- Every statement on decisions moves the trend days of the rows it touched
-- (trend_days_move).
CREATE OR REPLACE FUNCTION "decisions_trend_days"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "trend_days_move"(ARRAY(SELECT n."id" FROM new_rows n), '{}', '{}', '{}', '{}', '{}');
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM "trend_days_move"(ARRAY(SELECT n."id" FROM new_rows n), a."i", a."p", a."r", a."t", a."d")
       FROM (SELECT array_agg(o."id") AS "i", array_agg(o."period_id") AS "p", array_agg(o."risk_row_id") AS "r",
                    array_agg(o."updated_at") AS "t", array_agg(o."decision"::text) AS "d" FROM old_rows o) a;
  ELSE
    PERFORM "trend_days_move"('{}', a."i", a."p", a."r", a."t", a."d")
       FROM (SELECT array_agg(o."id") AS "i", array_agg(o."period_id") AS "p", array_agg(o."risk_row_id") AS "r",
                    array_agg(o."updated_at") AS "t", array_agg(o."decision"::text) AS "d" FROM old_rows o) a;
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS "decisions_trend_days_insert" ON "decisions";
CREATE TRIGGER "decisions_trend_days_insert" AFTER INSERT ON "decisions"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "decisions_trend_days"();

DROP TRIGGER IF EXISTS "decisions_trend_days_update" ON "decisions";
CREATE TRIGGER "decisions_trend_days_update" AFTER UPDATE ON "decisions"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "decisions_trend_days"();

DROP TRIGGER IF EXISTS "decisions_trend_days_delete" ON "decisions";
CREATE TRIGGER "decisions_trend_days_delete" AFTER DELETE ON "decisions"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "decisions_trend_days"();
