-- Issue 13 point 7: All Reviews searched by a reviewer's name, on 1M rows.
-- The total counts matching reviewers' decisions on rows the search does not
-- otherwise match (services/review-history.ts countReviews); counted per
-- request that was every decision of those reviewers (~3 s at 1M rows for
-- 'Rev 3', which matches 11 reviewers). shared_item_decisions keeps, per
-- period, reviewer, upload and item (user id and role/profile), how many
-- decisions the reviewer made on the item's rows of that upload in the period
-- and how many of them are 'remove': the count becomes a sum of these over
-- the live uploads (services/shared-items.ts countKeptReviewerDecisions) less
-- the items the search matches.
--
-- How it stays right: every decision inserted, updated or deleted moves its
-- counts in the same statement (the trigger below). Rows going live or out
-- of it (an upload, append, replace or purge) change nothing here: the
-- reader keeps the live uploads' counts, so no upload pays for a refresh
-- (rows never change their user, role or upload in place). Rows loaded
-- without an upload (all live) count under upload_id
-- 00000000-0000-0000-0000-000000000000.
CREATE TABLE "shared_item_decisions" (
    "period_id" UUID NOT NULL,
    "reviewer_id" UUID NOT NULL,
    "upload_id" UUID NOT NULL,
    "user_id" TEXT NOT NULL,
    "role_profile" TEXT NOT NULL,
    "decisions" INTEGER NOT NULL DEFAULT 0,
    "removals" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "shared_item_decisions_pkey" PRIMARY KEY ("period_id", "reviewer_id", "upload_id", "user_id", "role_profile")
);
ALTER TABLE "shared_item_decisions" ADD CONSTRAINT "shared_item_decisions_period_id_fkey" FOREIGN KEY ("period_id") REFERENCES "review_periods"("id") ON DELETE CASCADE ON UPDATE CASCADE;
-- A reviewer's counts by an index-only scan (with the Shared Roles filter), the
-- items a search matches whole by user or by role (taken off their totals).
CREATE INDEX "shared_item_decisions_sums" ON "shared_item_decisions"("period_id", "reviewer_id") INCLUDE ("upload_id", "user_id", "role_profile", "decisions", "removals");
CREATE INDEX "shared_item_decisions_period_id_user_id_idx" ON "shared_item_decisions"("period_id", "user_id");
CREATE INDEX "shared_item_decisions_period_id_role_profile_idx" ON "shared_item_decisions"("period_id", "role_profile");

-- The same counts per period, reviewer and upload only (50 rows a period for
-- 50 reviewers and one upload): a search matching many reviewers sums these.
CREATE TABLE "reviewer_decision_totals" (
    "period_id" UUID NOT NULL,
    "reviewer_id" UUID NOT NULL,
    "upload_id" UUID NOT NULL,
    "decisions" INTEGER NOT NULL DEFAULT 0,
    "removals" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "reviewer_decision_totals_pkey" PRIMARY KEY ("period_id", "reviewer_id", "upload_id")
);
ALTER TABLE "reviewer_decision_totals" ADD CONSTRAINT "reviewer_decision_totals_period_id_fkey" FOREIGN KEY ("period_id") REFERENCES "review_periods"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The statement's new rows added (n = 1) and its old rows taken off (n = -1),
-- passed column by column (a transition table's rows are records); not for a
-- period being deleted (its counts go with it).
CREATE OR REPLACE FUNCTION "shared_item_decisions_move"("m_periods" UUID[], "m_reviewers" UUID[], "m_rows" BIGINT[], "m_decisions" TEXT[], "m_n" INT[])
  RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "shared_item_decisions" ("period_id", "reviewer_id", "upload_id", "user_id", "role_profile", "decisions", "removals")
  SELECT m."period_id", m."reviewer_id", coalesce(r."upload_id", '00000000-0000-0000-0000-000000000000'::uuid), r."user_id", r."role_profile",
         sum(m."n"), coalesce(sum(m."n") FILTER (WHERE m."decision" = 'remove'), 0)
    FROM unnest("m_periods", "m_reviewers", "m_rows", "m_decisions", "m_n") m("period_id", "reviewer_id", "risk_row_id", "decision", "n")
    JOIN "risk_rows" r ON r."id" = m."risk_row_id"
   WHERE m."period_id" IN (SELECT "id" FROM "review_periods")
   GROUP BY 1, 2, 3, 4, 5
  ON CONFLICT ("period_id", "reviewer_id", "upload_id", "user_id", "role_profile") DO UPDATE
    SET "decisions" = "shared_item_decisions"."decisions" + EXCLUDED."decisions",
        "removals" = "shared_item_decisions"."removals" + EXCLUDED."removals";
  INSERT INTO "reviewer_decision_totals" ("period_id", "reviewer_id", "upload_id", "decisions", "removals")
  SELECT m."period_id", m."reviewer_id", coalesce(r."upload_id", '00000000-0000-0000-0000-000000000000'::uuid),
         sum(m."n"), coalesce(sum(m."n") FILTER (WHERE m."decision" = 'remove'), 0)
    FROM unnest("m_periods", "m_reviewers", "m_rows", "m_decisions", "m_n") m("period_id", "reviewer_id", "risk_row_id", "decision", "n")
    JOIN "risk_rows" r ON r."id" = m."risk_row_id"
   WHERE m."period_id" IN (SELECT "id" FROM "review_periods")
   GROUP BY 1, 2, 3
  ON CONFLICT ("period_id", "reviewer_id", "upload_id") DO UPDATE
    SET "decisions" = "reviewer_decision_totals"."decisions" + EXCLUDED."decisions",
        "removals" = "reviewer_decision_totals"."removals" + EXCLUDED."removals";
END $$;

CREATE OR REPLACE FUNCTION "decisions_item_reviewer_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "shared_item_decisions_move"(array_agg(x."period_id"), array_agg(x."reviewer_id"), array_agg(x."risk_row_id"), array_agg(x."decision"::text), array_agg(1))
       FROM new_rows x HAVING count(*) > 0;
  ELSIF TG_OP = 'UPDATE' THEN
    PERFORM "shared_item_decisions_move"(array_agg(x."period_id"), array_agg(x."reviewer_id"), array_agg(x."risk_row_id"), array_agg(x."decision"), array_agg(x."n"))
       FROM (SELECT n."period_id", n."reviewer_id", n."risk_row_id", n."decision"::text AS "decision", 1 AS "n" FROM new_rows n
             UNION ALL
             SELECT o."period_id", o."reviewer_id", o."risk_row_id", o."decision"::text, -1 FROM old_rows o) x HAVING count(*) > 0;
  ELSE
    PERFORM "shared_item_decisions_move"(array_agg(x."period_id"), array_agg(x."reviewer_id"), array_agg(x."risk_row_id"), array_agg(x."decision"::text), array_agg(-1))
       FROM old_rows x HAVING count(*) > 0;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "decisions_item_reviewer_counts_insert" AFTER INSERT ON "decisions"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "decisions_item_reviewer_counts"();
CREATE TRIGGER "decisions_item_reviewer_counts_update" AFTER UPDATE ON "decisions"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "decisions_item_reviewer_counts"();
CREATE TRIGGER "decisions_item_reviewer_counts_delete" AFTER DELETE ON "decisions"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "decisions_item_reviewer_counts"();

-- Every decision so far.
INSERT INTO "shared_item_decisions" ("period_id", "reviewer_id", "upload_id", "user_id", "role_profile", "decisions", "removals")
SELECT d."period_id", d."reviewer_id", coalesce(r."upload_id", '00000000-0000-0000-0000-000000000000'::uuid), r."user_id", r."role_profile",
       count(*), count(*) FILTER (WHERE d."decision" = 'remove')
  FROM "decisions" d JOIN "risk_rows" r ON r."id" = d."risk_row_id"
 GROUP BY 1, 2, 3, 4, 5;
INSERT INTO "reviewer_decision_totals" ("period_id", "reviewer_id", "upload_id", "decisions", "removals")
SELECT "period_id", "reviewer_id", "upload_id", sum("decisions"), sum("removals") FROM "shared_item_decisions" GROUP BY 1, 2, 3;
