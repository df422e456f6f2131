-- Who reviews what follows the assignment criteria and the item holds: any
-- change to either bumps risk_data_version.criteria_version, which the figures
-- kept per period (shared items, trends) are stamped with.
CREATE OR REPLACE FUNCTION "assignment_criteria_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "risk_data_version" SET "criteria_version" = "criteria_version" + 1 WHERE "id" = 1;
  RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS "assignment_criteria_changed" ON "assignment_criteria";
CREATE TRIGGER "assignment_criteria_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "assignment_criteria"
  FOR EACH STATEMENT EXECUTE FUNCTION "assignment_criteria_changed"();

DROP TRIGGER IF EXISTS "item_holds_changed" ON "item_holds";
CREATE TRIGGER "item_holds_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "item_holds"
  FOR EACH STATEMENT EXECUTE FUNCTION "assignment_criteria_changed"();
