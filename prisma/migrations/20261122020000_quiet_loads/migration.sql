-- Cached counts key on risk_data_version, which every COPY batch of a load
-- bumped, although the rows of an upload still loading are invisible until
-- the upload goes live (and that bumps the version by itself). During a load
-- every request therefore counted again, and every batch took the version
-- row's lock. Now only changes to rows that are visible bump it: rows loaded
-- without an upload, and deleted rows that were live (not the purge of a
-- superseded or failed upload's rows).
CREATE OR REPLACE FUNCTION "risk_rows_after_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  unattached BIGINT;
BEGIN
  INSERT INTO "risk_terms" ("kind", "value", "label")
  SELECT DISTINCT 'user', "user_id", "user_name" FROM new_rows
  UNION SELECT DISTINCT 'role', "role_profile", '' FROM new_rows
  UNION SELECT DISTINCT 'risk', "access_risk_id", "risk_description" FROM new_rows
  ON CONFLICT DO NOTHING;
  SELECT max("id") INTO unattached FROM new_rows WHERE "upload_id" IS NULL;
  IF unattached IS NOT NULL THEN
    UPDATE "risk_data_version"
       SET "version" = "version" + 1,
           "max_unattached_row_id" = greatest("max_unattached_row_id", unattached)
     WHERE "id" = 1;
  END IF;
  RETURN NULL;
END $$;

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
