-- Decisions deleted: their periods lose their stamp in shared_item_periods, so
-- the next reader works their shared_items out again (services/kept/shared-items.ts).
CREATE OR REPLACE FUNCTION "decisions_after_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "shared_item_periods" WHERE "period_id" IN (SELECT DISTINCT "period_id" FROM old_rows);
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS "decisions_after_delete" ON "decisions";
CREATE TRIGGER "decisions_after_delete" AFTER DELETE ON "decisions"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "decisions_after_delete"();
