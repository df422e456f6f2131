-- An incremental run names the run it copied its untouched users from and
-- says how many users it recomputed (a full run: every analysed user).
ALTER TABLE "access_analysis_runs" ADD COLUMN "recomputed_users" INTEGER, ADD COLUMN "base_run_id" UUID;
