-- A test run: a rule set version that is not the active one of its name, run
-- against the current data to see what it would change. It compares with the
-- latest completed run of the active version (compare_to) instead of the
-- previous run of its own version, and never goes to the review.
ALTER TABLE "access_analysis_runs" ADD COLUMN "test" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "access_analysis_runs" ADD COLUMN "compare_to" UUID;
ALTER TABLE "access_analysis_runs" ADD CONSTRAINT "access_analysis_runs_compare_to_fkey" FOREIGN KEY ("compare_to") REFERENCES "access_analysis_runs"("id") ON DELETE SET NULL ON UPDATE CASCADE;
