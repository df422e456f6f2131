-- Risk analysis and simulation runs on real data (issue 11): the latest result
-- per user is read per viewer (their decisions, their rows); a simulation run
-- keeps its outcome and filter as columns, and who ran it.
CREATE INDEX "analysis_results_created_by_id_subject_user_id_created_at_idx" ON "analysis_results"("created_by_id", "subject_user_id", "created_at" DESC);

ALTER TABLE "simulations" ADD COLUMN "composite_roles_only" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "simulations" ADD COLUMN "matched" BOOLEAN;
CREATE INDEX "simulations_created_by_id_created_at_idx" ON "simulations"("created_by_id", "created_at" DESC);

-- The role-wide what-if finds a composite role's holders, and its picker walks the distinct roles, by this index.
CREATE INDEX "risk_rows_composite_business_role_idx" ON "risk_rows"("composite_business_role");
