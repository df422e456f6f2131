-- New rows feed the search terms (users, roles, risks: the filters' suggestions),
-- and bump risk_data_version only for rows that are visible at once: rows loaded
-- without an upload. The rows of an upload still loading stay invisible until it
-- goes live (uploads_live_changed bumps the version then), so a load does not make
-- every request count again nor take the version row's lock per COPY batch.
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

DROP TRIGGER IF EXISTS "risk_rows_after_insert" ON "risk_rows";
CREATE TRIGGER "risk_rows_after_insert" AFTER INSERT ON "risk_rows"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "risk_rows_after_insert"();
