-- An item is shared when it has more than one reviewer (README 'Shared
-- reviews'). shared_items kept that as a column written beside the reviewers by
-- every statement that wrote them (two triggers and three statements of
-- services/shared-items.ts), each working the merged array out a second time to
-- count it. The column is now generated from the reviewers, so the rule has one
-- home and the writers write the reviewers only. The indexes holding it (kept
-- totals, read by index-only scans) are made again with the new column.
CREATE OR REPLACE FUNCTION "decisions_after_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "shared_items" ("period_id", "user_id", "role_profile", "reviewers", "decisions", "removals")
  SELECT x."period_id", x."user_id", x."role_profile",
         coalesce(array_agg(DISTINCT x."reviewer_id") FILTER (WHERE x."reviewer_id" IS NOT NULL), '{}'), sum(x."n"), sum(x."rm")
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
        "decisions" = "shared_items"."decisions" + EXCLUDED."decisions",
        "removals" = "shared_items"."removals" + EXCLUDED."removals";
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "decisions_after_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "shared_items" ("period_id", "user_id", "role_profile", "reviewers", "decisions", "removals", "decided_rows")
  SELECT n."period_id", r."user_id", r."role_profile", array_agg(DISTINCT n."reviewer_id"), count(*), count(*) FILTER (WHERE n."decision" = 'remove'),
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
        "decisions" = "shared_items"."decisions" + EXCLUDED."decisions",
        "removals" = "shared_items"."removals" + EXCLUDED."removals",
        "decided_rows" = "shared_items"."decided_rows" + EXCLUDED."decided_rows";
  RETURN NULL;
END $$;

-- Dropping the column drops the three indexes that hold it.
ALTER TABLE "shared_items" DROP COLUMN "shared";
ALTER TABLE "shared_items" ADD COLUMN "shared" BOOLEAN NOT NULL GENERATED ALWAYS AS (cardinality("reviewers") > 1) STORED;
CREATE INDEX "shared_items_totals" ON "shared_items"("period_id", "shared") INCLUDE ("decisions", "removals", "decided_rows");
CREATE INDEX "shared_items_user_counts" ON "shared_items"("period_id", "user_id") INCLUDE ("role_profile", "shared", "decisions", "removals");
CREATE INDEX "shared_items_role_counts" ON "shared_items"("period_id", "role_profile") INCLUDE ("user_id", "shared", "decisions", "removals");
