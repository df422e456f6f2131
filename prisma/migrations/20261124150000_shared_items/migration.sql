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
--   (decisions_after_insert / _update, below); a deleted decision (a period
--   reopened takes back the defaults of its close) marks its period for a
--   refresh.
-- Each item also counts the decisions on its live rows in the period (and how
-- many of them are 'remove', and on how many of its rows somebody decided):
-- All Reviews' totals and the dashboard's pending count are sums of these
-- instead of a count over every decision per request.
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
    "decisions" INTEGER NOT NULL DEFAULT 0,
    "removals" INTEGER NOT NULL DEFAULT 0,
    "decided_rows" INTEGER NOT NULL DEFAULT 0,
    "shared" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "shared_items_pkey" PRIMARY KEY ("period_id", "user_id", "role_profile")
);
-- The totals read without the reviewers' arrays (~0.8 kB an item: a scan of the
-- table for a sum read 124 MB at 1M rows): an index-only scan of this one.
CREATE INDEX "shared_items_totals" ON "shared_items"("period_id", "shared") INCLUDE ("decisions", "removals", "decided_rows");
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

-- A decision's reviewer is a reviewer of its item, and the decision counts on
-- it (in a period already worked out). An update moves the counts (a decision
-- changed to or from 'remove').
CREATE OR REPLACE FUNCTION "decisions_after_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "shared_items" ("period_id", "user_id", "role_profile", "reviewers", "decisions", "removals", "shared")
  SELECT x."period_id", x."user_id", x."role_profile",
         coalesce(array_agg(DISTINCT x."reviewer_id") FILTER (WHERE x."reviewer_id" IS NOT NULL), '{}'), sum(x."n"), sum(x."rm"),
         count(DISTINCT x."reviewer_id") > 1
    FROM (
      SELECT n."period_id", r."user_id", r."role_profile", n."reviewer_id", 1 AS "n", (n."decision" = 'remove')::int AS "rm"
        FROM new_rows n JOIN "risk_rows" r ON r."id" = n."risk_row_id"
      UNION ALL
      SELECT o."period_id", r."user_id", r."role_profile", NULL, -1, -((o."decision" = 'remove')::int)
        FROM old_rows o JOIN "risk_rows" r ON r."id" = o."risk_row_id"
    ) x
   WHERE x."period_id" IN (SELECT "period_id" FROM "shared_item_periods")
   GROUP BY 1, 2, 3
  ON CONFLICT ("period_id", "user_id", "role_profile") DO UPDATE
    SET "reviewers" = CASE WHEN EXCLUDED."reviewers" <@ "shared_items"."reviewers" THEN "shared_items"."reviewers"
                           ELSE ARRAY(SELECT DISTINCT x FROM unnest("shared_items"."reviewers" || EXCLUDED."reviewers") x ORDER BY x) END,
        "shared" = "shared_items"."shared" OR cardinality(ARRAY(SELECT DISTINCT x FROM unnest("shared_items"."reviewers" || EXCLUDED."reviewers") x)) > 1,
        "decisions" = "shared_items"."decisions" + EXCLUDED."decisions",
        "removals" = "shared_items"."removals" + EXCLUDED."removals";
  RETURN NULL;
END $$;
-- An insert has no old table (so its own function, the same upsert).
CREATE OR REPLACE FUNCTION "decisions_after_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "shared_items" ("period_id", "user_id", "role_profile", "reviewers", "decisions", "removals", "shared", "decided_rows")
  SELECT n."period_id", r."user_id", r."role_profile", array_agg(DISTINCT n."reviewer_id"), count(*), count(*) FILTER (WHERE n."decision" = 'remove'),
         count(DISTINCT n."reviewer_id") > 1,
         -- rows nobody had decided in the period before this statement
         count(DISTINCT n."risk_row_id") FILTER (WHERE NOT EXISTS (
           SELECT 1 FROM "decisions" o WHERE o."risk_row_id" = n."risk_row_id" AND o."period_id" = n."period_id"
              AND o."id" NOT IN (SELECT "id" FROM new_rows)))
    FROM new_rows n JOIN "risk_rows" r ON r."id" = n."risk_row_id"
   WHERE n."period_id" IN (SELECT "period_id" FROM "shared_item_periods")
   GROUP BY 1, 2, 3
  ON CONFLICT ("period_id", "user_id", "role_profile") DO UPDATE
    SET "reviewers" = CASE WHEN EXCLUDED."reviewers" <@ "shared_items"."reviewers" THEN "shared_items"."reviewers"
                           ELSE ARRAY(SELECT DISTINCT x FROM unnest("shared_items"."reviewers" || EXCLUDED."reviewers") x ORDER BY x) END,
        "shared" = "shared_items"."shared" OR cardinality(ARRAY(SELECT DISTINCT x FROM unnest("shared_items"."reviewers" || EXCLUDED."reviewers") x)) > 1,
        "decisions" = "shared_items"."decisions" + EXCLUDED."decisions",
        "removals" = "shared_items"."removals" + EXCLUDED."removals",
        "decided_rows" = "shared_items"."decided_rows" + EXCLUDED."decided_rows";
  RETURN NULL;
END $$;
CREATE TRIGGER "decisions_after_insert" AFTER INSERT ON "decisions"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "decisions_after_insert"();
CREATE TRIGGER "decisions_after_update" AFTER UPDATE ON "decisions"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "decisions_after_update"();

-- All Reviews newest first, everyone's and a reviewer's own.
CREATE INDEX "decisions_updated_at_id_idx" ON "decisions"("updated_at", "id");
CREATE INDEX "decisions_reviewer_id_updated_at_id_idx" ON "decisions"("reviewer_id", "updated_at", "id");

CREATE OR REPLACE FUNCTION "decisions_after_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "shared_item_periods" WHERE "period_id" IN (SELECT DISTINCT "period_id" FROM old_rows);
  RETURN NULL;
END $$;
CREATE TRIGGER "decisions_after_delete" AFTER DELETE ON "decisions"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "decisions_after_delete"();

-- The dashboard's Risk Categories card is cached per data version like the
-- other counts; accepting or rejecting an AI category changes it without
-- changing the rows, so such an update bumps its own version.
ALTER TABLE "risk_data_version" ADD COLUMN "category_version" BIGINT NOT NULL DEFAULT 0;
CREATE OR REPLACE FUNCTION "risk_rows_category_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "risk_data_version" SET "category_version" = "category_version" + 1 WHERE "id" = 1;
  RETURN NULL;
END $$;
CREATE TRIGGER "risk_rows_category_changed" AFTER UPDATE OF "ai_category_accepted", "ai_suggested_category" ON "risk_rows"
  FOR EACH STATEMENT EXECUTE FUNCTION "risk_rows_category_changed"();
