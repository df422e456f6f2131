-- Loading cost per row. The foreign key from risk_rows to uploads ran a
-- check trigger for every loaded row; the row_hash index was maintained on
-- every row but no query needs it (duplicates are found in the loader's own
-- set, a replace carries decisions over by joining the new upload's rows,
-- found through upload_id). Rows of an upload are deleted by the loader
-- itself (failed, superseded or purged uploads), so nothing relied on the
-- cascade.
ALTER TABLE "risk_rows" DROP CONSTRAINT IF EXISTS "risk_rows_upload_id_fkey";
DROP INDEX IF EXISTS "risk_rows_row_hash_idx";

-- Reading while a file loads. Rows of an upload that is still loading (or
-- failed) are invisible, but a query walking risk_rows by id still had to
-- step over them: with no live rows before them, or when reading backwards
-- (the last page), that was every row loaded so far, on every request. Live
-- rows never lie above the highest id of a live upload or of a row loaded
-- without an upload, so readers bound their scans by that id.
ALTER TABLE "uploads" ADD COLUMN "max_row_id" BIGINT;
ALTER TABLE "risk_data_version" ADD COLUMN "max_unattached_row_id" BIGINT NOT NULL DEFAULT 0;
UPDATE "uploads" u SET "max_row_id" = (SELECT max(r."id") FROM "risk_rows" r WHERE r."upload_id" = u."id") WHERE u."live";
UPDATE "risk_data_version" SET "max_unattached_row_id" = coalesce((SELECT max("id") FROM "risk_rows" WHERE "upload_id" IS NULL), 0);

CREATE OR REPLACE FUNCTION "risk_rows_after_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "risk_terms" ("kind", "value", "label")
  SELECT DISTINCT 'user', "user_id", "user_name" FROM new_rows
  UNION SELECT DISTINCT 'role', "role_profile", '' FROM new_rows
  UNION SELECT DISTINCT 'risk', "access_risk_id", "risk_description" FROM new_rows
  ON CONFLICT DO NOTHING;
  UPDATE "risk_data_version"
     SET "version" = "version" + 1,
         "max_unattached_row_id" = greatest("max_unattached_row_id", coalesce((SELECT max("id") FROM new_rows WHERE "upload_id" IS NULL), 0))
   WHERE "id" = 1;
  RETURN NULL;
END $$;
