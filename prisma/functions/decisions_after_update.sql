-- A decision changed: its old version is taken off the item's counts in
-- shared_items and the new one added; its reviewer joins the item's reviewers.
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

DROP TRIGGER IF EXISTS "decisions_after_update" ON "decisions";
CREATE TRIGGER "decisions_after_update" AFTER UPDATE ON "decisions"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "decisions_after_update"();
