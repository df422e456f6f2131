-- Issue 13 point 7: All Reviews searched, on 1M rows. Its total counts the
-- decisions of the items (user id and role/profile) the search matches by user
-- or role from the kept per-item counts (services/review-history.ts
-- countReviews) instead of every matching decision per request (4 s at 1M
-- rows). The items of a period by user id and by role, with the counts, read
-- by an index-only scan (the table's rows carry the reviewers' arrays, ~0.8 kB
-- an item; by the primary key a role was a scan of the period's every item).
CREATE INDEX "shared_items_user_counts" ON "shared_items"("period_id", "user_id") INCLUDE ("role_profile", "shared", "decisions", "removals");
CREATE INDEX "shared_items_role_counts" ON "shared_items"("period_id", "role_profile") INCLUDE ("user_id", "shared", "decisions", "removals");
