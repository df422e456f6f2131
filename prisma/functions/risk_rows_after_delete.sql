-- Deleting rows that were visible (rows without an upload, or of a live upload)
-- bumps risk_data_version; the purge of a superseded or failed upload's rows,
-- never visible, does not.
CREATE OR REPLACE FUNCTION "risk_rows_after_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM old_rows o WHERE o."upload_id" IS NULL OR o."upload_id" IN (SELECT u."id" FROM "uploads" u WHERE u."live")) THEN
    UPDATE "risk_data_version" SET "version" = "version" + 1 WHERE "id" = 1;
  END IF;
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS "risk_rows_after_delete" ON "risk_rows";
CREATE TRIGGER "risk_rows_after_delete" AFTER DELETE ON "risk_rows"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "risk_rows_after_delete"();
