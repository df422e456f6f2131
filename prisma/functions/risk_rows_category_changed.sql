-- The category of a row (the AI's suggestion, or its acceptance) changed:
-- risk_data_version.category_version is bumped, which cached category figures key on.
CREATE OR REPLACE FUNCTION "risk_rows_category_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "risk_data_version" SET "category_version" = "category_version" + 1 WHERE "id" = 1;
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS "risk_rows_category_changed" ON "risk_rows";
CREATE TRIGGER "risk_rows_category_changed" AFTER UPDATE OF "ai_category_accepted", "ai_suggested_category" ON "risk_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "risk_rows_category_changed"();
