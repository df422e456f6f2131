-- Every statement on decisions moves the per-reviewer counts of the items it
-- touched (shared_item_decisions_move).
CREATE OR REPLACE FUNCTION "decisions_item_reviewer_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "shared_item_decisions_move"(array_agg(x."period_id"), array_agg(x."reviewer_id"), array_agg(x."risk_row_id"), array_agg(x."decision"::text), array_agg(1))
       FROM new_rows x HAVING count(*) > 0;
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM "shared_item_decisions_move"(array_agg(x."period_id"), array_agg(x."reviewer_id"), array_agg(x."risk_row_id"), array_agg(x."decision"), array_agg(x."n"))
       FROM (SELECT n."period_id", n."reviewer_id", n."risk_row_id", n."decision"::text AS "decision", 1 AS "n" FROM new_rows n
             UNION ALL
             SELECT o."period_id", o."reviewer_id", o."risk_row_id", o."decision"::text, -1 FROM old_rows o) x HAVING count(*) > 0;
  ELSE
    PERFORM "shared_item_decisions_move"(array_agg(x."period_id"), array_agg(x."reviewer_id"), array_agg(x."risk_row_id"), array_agg(x."decision"::text), array_agg(-1))
       FROM old_rows x HAVING count(*) > 0;
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS "decisions_item_reviewer_counts_insert" ON "decisions";
CREATE TRIGGER "decisions_item_reviewer_counts_insert" AFTER INSERT ON "decisions"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "decisions_item_reviewer_counts"();

DROP TRIGGER IF EXISTS "decisions_item_reviewer_counts_update" ON "decisions";
CREATE TRIGGER "decisions_item_reviewer_counts_update" AFTER UPDATE ON "decisions"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "decisions_item_reviewer_counts"();

DROP TRIGGER IF EXISTS "decisions_item_reviewer_counts_delete" ON "decisions";
CREATE TRIGGER "decisions_item_reviewer_counts_delete" AFTER DELETE ON "decisions"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "decisions_item_reviewer_counts"();
