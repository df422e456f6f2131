-- Issue 13 point 7: All Reviews searched by a reviewer's name, on 1M rows.
-- The total counts matching reviewers' decisions on rows the search does not
-- otherwise match (services/review-history.ts countReviews); counted per
-- request that was every decision of those reviewers (~4 s at 1M rows for
-- 'Rev', which matches 50 reviewers). shared_item_decisions keeps, beside
-- shared_items and with the same stamp (shared_item_periods, the one home of
-- the rule: services/shared-items.ts), per period, reviewer and item (user id
-- and role/profile), how many decisions the reviewer made on its live rows in
-- the period and how many of them are 'remove': the count becomes a sum of
-- these less the items the search matches.
--
-- How it stays right, as shared_items does: a period's refresh (the live rows
-- or the criteria changed) works its counts out again in the same
-- transaction; a decision inserted or updated moves its counts in the same
-- statement (the trigger below, for periods already worked out); a deleted
-- decision drops the period's stamp (decisions_after_delete), so the next
-- reader refreshes both.
CREATE TABLE "shared_item_decisions" (
    "period_id" UUID NOT NULL,
    "reviewer_id" UUID NOT NULL,
    "user_id" TEXT NOT NULL,
    "role_profile" TEXT NOT NULL,
    "decisions" INTEGER NOT NULL DEFAULT 0,
    "removals" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "shared_item_decisions_pkey" PRIMARY KEY ("period_id", "reviewer_id", "user_id", "role_profile")
);
ALTER TABLE "shared_item_decisions" ADD CONSTRAINT "shared_item_decisions_period_id_fkey" FOREIGN KEY ("period_id") REFERENCES "review_periods"("id") ON DELETE CASCADE ON UPDATE CASCADE;
-- A reviewer's counts by an index-only scan.
CREATE INDEX "shared_item_decisions_sums" ON "shared_item_decisions"("period_id", "reviewer_id") INCLUDE ("user_id", "role_profile", "decisions", "removals");

CREATE OR REPLACE FUNCTION "decisions_item_reviewer_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "shared_item_decisions" ("period_id", "reviewer_id", "user_id", "role_profile", "decisions", "removals")
    SELECT n."period_id", n."reviewer_id", r."user_id", r."role_profile", count(*), count(*) FILTER (WHERE n."decision" = 'remove')
      FROM new_rows n JOIN "risk_rows" r ON r."id" = n."risk_row_id"
     WHERE n."period_id" IN (SELECT "period_id" FROM "shared_item_periods")
     GROUP BY 1, 2, 3, 4
    ON CONFLICT ("period_id", "reviewer_id", "user_id", "role_profile") DO UPDATE
      SET "decisions" = "shared_item_decisions"."decisions" + EXCLUDED."decisions",
          "removals" = "shared_item_decisions"."removals" + EXCLUDED."removals";
  ELSE
    INSERT INTO "shared_item_decisions" ("period_id", "reviewer_id", "user_id", "role_profile", "decisions", "removals")
    SELECT x."period_id", x."reviewer_id", r."user_id", r."role_profile", sum(x."n"), sum(x."rm")
      FROM (SELECT n."period_id", n."reviewer_id", n."risk_row_id", 1 AS "n", (n."decision" = 'remove')::int AS "rm" FROM new_rows n
            UNION ALL
            SELECT o."period_id", o."reviewer_id", o."risk_row_id", -1, -((o."decision" = 'remove')::int) FROM old_rows o) x
      JOIN "risk_rows" r ON r."id" = x."risk_row_id"
     WHERE x."period_id" IN (SELECT "period_id" FROM "shared_item_periods")
     GROUP BY 1, 2, 3, 4
    ON CONFLICT ("period_id", "reviewer_id", "user_id", "role_profile") DO UPDATE
      SET "decisions" = "shared_item_decisions"."decisions" + EXCLUDED."decisions",
          "removals" = "shared_item_decisions"."removals" + EXCLUDED."removals";
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "decisions_item_reviewer_counts_insert" AFTER INSERT ON "decisions"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "decisions_item_reviewer_counts"();
CREATE TRIGGER "decisions_item_reviewer_counts_update" AFTER UPDATE ON "decisions"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "decisions_item_reviewer_counts"();

-- The periods already worked out get their counts now (the live rows as services/live-rows.ts says).
INSERT INTO "shared_item_decisions" ("period_id", "reviewer_id", "user_id", "role_profile", "decisions", "removals")
SELECT d."period_id", d."reviewer_id", r."user_id", r."role_profile", count(*), count(*) FILTER (WHERE d."decision" = 'remove')
  FROM "decisions" d JOIN "risk_rows" r ON r."id" = d."risk_row_id"
 WHERE d."period_id" IN (SELECT "period_id" FROM "shared_item_periods")
   AND r."id" <= (SELECT greatest(v."max_unattached_row_id", coalesce((SELECT max(u."max_row_id") FROM "uploads" u WHERE u."live"), 0)) FROM "risk_data_version" v WHERE v."id" = 1)
   AND (r."upload_id" IS NULL OR r."upload_id" IN (SELECT u."id" FROM "uploads" u WHERE u."live"))
 GROUP BY 1, 2, 3, 4;
