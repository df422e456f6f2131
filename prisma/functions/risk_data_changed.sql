-- An upload going live (or no longer live) changes which rows are visible:
-- cached counts key on risk_data_version.version, so it is bumped.
CREATE OR REPLACE FUNCTION "risk_data_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "risk_data_version" SET "version" = "version" + 1 WHERE "id" = 1;
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS "uploads_live_changed" ON "uploads";
CREATE TRIGGER "uploads_live_changed" AFTER UPDATE OF "live" ON "uploads"
  FOR EACH STATEMENT EXECUTE FUNCTION "risk_data_changed"();
