-- Issue 13 point 7: 'shared' (README 'Shared reviews') kept per period instead
-- of worked out per request. shared_items holds, for each period whose items
-- have been worked out (shared_item_periods), every item (user id and
-- role/profile) of the live rows with its reviewers: those a live row of it
-- is assigned to (their criteria match it and it was not moved away from them,
-- or it was moved to them: item_holds), and those who decided a row of it in
-- the period. An item is shared when it has more than one reviewer.
--
-- How it stays right (services/shared-items.ts is the one home of the rule):
-- - rows (upload, append, purge) and criteria (added, removed) change it as a
--   whole, and so do single items moved by a reassignment (item_holds): the
--   period's stamp (risk_data_version.version and criteria_version, bumped by
--   the triggers below) no longer matches, and the
--   next reader refreshes the period by one set-based statement;
-- - a decision adds its reviewer to its item in the same statement
--   (decisions_after_write, below); a deleted decision (a period reopened
--   takes back the defaults of its close) marks its period for a refresh.
ALTER TABLE "risk_data_version" ADD COLUMN "criteria_version" BIGINT NOT NULL DEFAULT 0;

CREATE TABLE "shared_item_periods" (
    "period_id" UUID NOT NULL,
    "data_version" BIGINT NOT NULL,
    "criteria_version" BIGINT NOT NULL,
    "refreshed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "shared_item_periods_pkey" PRIMARY KEY ("period_id")
);
ALTER TABLE "shared_item_periods" ADD CONSTRAINT "shared_item_periods_period_id_fkey" FOREIGN KEY ("period_id") REFERENCES "review_periods"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "shared_items" (
    "period_id" UUID NOT NULL,
    "user_id" TEXT NOT NULL,
    "role_profile" TEXT NOT NULL,
    "reviewers" UUID[],
    CONSTRAINT "shared_items_pkey" PRIMARY KEY ("period_id", "user_id", "role_profile")
);
ALTER TABLE "shared_items" ADD CONSTRAINT "shared_items_period_id_fkey" FOREIGN KEY ("period_id") REFERENCES "review_periods"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The rows of one item (refresh, 'Shared With').
CREATE INDEX "risk_rows_user_id_role_profile_idx" ON "risk_rows"("user_id", "role_profile");

CREATE OR REPLACE FUNCTION "assignment_criteria_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "risk_data_version" SET "criteria_version" = "criteria_version" + 1 WHERE "id" = 1;
  RETURN NULL;
END $$;
CREATE TRIGGER "assignment_criteria_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "assignment_criteria"
  FOR EACH STATEMENT EXECUTE FUNCTION "assignment_criteria_changed"();
CREATE TRIGGER "item_holds_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "item_holds"
  FOR EACH STATEMENT EXECUTE FUNCTION "assignment_criteria_changed"();

-- A decision's reviewer is a reviewer of its item (in a period already worked out).
CREATE OR REPLACE FUNCTION "decisions_after_write"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "shared_items" ("period_id", "user_id", "role_profile", "reviewers")
  SELECT n."period_id", r."user_id", r."role_profile", array_agg(DISTINCT n."reviewer_id")
    FROM new_rows n JOIN "risk_rows" r ON r."id" = n."risk_row_id"
   WHERE n."period_id" IN (SELECT "period_id" FROM "shared_item_periods")
   GROUP BY 1, 2, 3
  ON CONFLICT ("period_id", "user_id", "role_profile") DO UPDATE
    SET "reviewers" = ARRAY(SELECT DISTINCT x FROM unnest("shared_items"."reviewers" || EXCLUDED."reviewers") x ORDER BY x)
    WHERE NOT (EXCLUDED."reviewers" <@ "shared_items"."reviewers");
  RETURN NULL;
END $$;
CREATE TRIGGER "decisions_after_insert" AFTER INSERT ON "decisions"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "decisions_after_write"();
CREATE TRIGGER "decisions_after_update" AFTER UPDATE ON "decisions"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "decisions_after_write"();

CREATE OR REPLACE FUNCTION "decisions_after_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "shared_item_periods" WHERE "period_id" IN (SELECT DISTINCT "period_id" FROM old_rows);
  RETURN NULL;
END $$;
CREATE TRIGGER "decisions_after_delete" AFTER DELETE ON "decisions"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "decisions_after_delete"();
