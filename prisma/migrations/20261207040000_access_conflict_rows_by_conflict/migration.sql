-- A conflict's rows read by its key (user, risk) within a run: the systems a
-- conflict shows, the filter by system and the rows under a conflict in the
-- graph look them up per conflict, which without this reads the whole run.
CREATE INDEX "access_conflict_rows_run_id_user_id_risk_id_idx" ON "access_conflict_rows"("run_id", "user_id", "risk_id");
