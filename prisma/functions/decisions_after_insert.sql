-- shared_items keeps, per period (once shared_item_periods lists it) and item
-- (user, role profile), the reviewers who decided it, its decisions, removals and
-- rows decided; "shared" is generated from the reviewers (README 'Shared reviews').
-- New decisions are added in the same statement.
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

DROP TRIGGER IF EXISTS "decisions_after_insert" ON "decisions";
CREATE TRIGGER "decisions_after_insert" AFTER INSERT ON "decisions"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "decisions_after_insert"();
