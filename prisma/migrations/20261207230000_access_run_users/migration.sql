-- A run's users with conflicts and, per user, the run that holds their
-- conflicts and rows, so an incremental run shares its untouched users' rows
-- with the run that holds them instead of copying them. The row numbers a
-- run shows are the stored ones plus the user's shift. Runs analysed before
-- hold all their rows themselves. A run whose rows another run shares
-- cannot be deleted while that run exists: the check is deferred to the
-- commit, so runs deleted together (with their rule set version) go at once.
CREATE TABLE "access_run_users" (
    "run_id" UUID NOT NULL,
    "user_id" TEXT COLLATE "C" NOT NULL,
    "source_run_id" UUID NOT NULL,
    "first_row" INTEGER NOT NULL,
    "row_shift" INTEGER NOT NULL,
    "rows" INTEGER NOT NULL,
    "conflicts" INTEGER NOT NULL,
    "exercised" INTEGER NOT NULL,
    CONSTRAINT "access_run_users_pkey" PRIMARY KEY ("run_id", "user_id"),
    CONSTRAINT "access_run_users_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "access_analysis_runs"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "access_run_users_source_run_id_fkey" FOREIGN KEY ("source_run_id") REFERENCES "access_analysis_runs"("id") ON DELETE NO ACTION ON UPDATE CASCADE DEFERRABLE INITIALLY DEFERRED
);
CREATE INDEX "access_run_users_source_run_id_idx" ON "access_run_users"("source_run_id");

INSERT INTO "access_run_users" ("run_id", "user_id", "source_run_id", "first_row", "row_shift", "rows", "conflicts", "exercised")
SELECT r.run_id, r.user_id, r.run_id, r.first_row, 0, r.rows, c.conflicts, c.exercised
  FROM (SELECT run_id, user_id, min(row_no) AS first_row, count(*)::int AS rows FROM "access_conflict_rows" GROUP BY run_id, user_id) r
  JOIN (SELECT run_id, user_id, count(*)::int AS conflicts, (count(*) FILTER (WHERE exercised))::int AS exercised FROM "access_conflicts" GROUP BY run_id, user_id) c
    ON c.run_id = r.run_id AND c.user_id = r.user_id;
