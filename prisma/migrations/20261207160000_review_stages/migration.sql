-- A period's review stages (services/review/stage-plan.ts): NULL is the one
-- stage every period had (reviewers by assignment criteria, then the
-- administrator's approval), so periods created before keep working as they did.
ALTER TABLE "review_periods" ADD COLUMN "stages" JSONB;

-- The decisions of stages 2 and 3 (stage 1's are "decisions"): one per
-- reviewer, stage and row, written by services/stages/stage-decision-writer.ts only.
CREATE TABLE "stage_decisions" (
    "period_id" UUID NOT NULL,
    "stage" INTEGER NOT NULL,
    "reviewer_id" UUID NOT NULL,
    "risk_row_id" BIGINT NOT NULL,
    "decision" "DecisionValue" NOT NULL,
    "comments" TEXT,
    "mitigation_control" TEXT,
    "mitigation_expires_at" DATE,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "stage_decisions_pkey" PRIMARY KEY ("period_id", "stage", "reviewer_id", "risk_row_id"),
    CONSTRAINT "stage_decisions_stage_check" CHECK ("stage" BETWEEN 2 AND 3)
);
-- A row's decisions of every stage (previous decisions, the final one, the evidence).
CREATE INDEX "stage_decisions_period_id_risk_row_id_idx" ON "stage_decisions"("period_id", "risk_row_id");
CREATE INDEX "stage_decisions_risk_row_id_idx" ON "stage_decisions"("risk_row_id");

ALTER TABLE "stage_decisions" ADD CONSTRAINT "stage_decisions_period_id_fkey" FOREIGN KEY ("period_id") REFERENCES "review_periods"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "stage_decisions" ADD CONSTRAINT "stage_decisions_reviewer_id_fkey" FOREIGN KEY ("reviewer_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "stage_decisions" ADD CONSTRAINT "stage_decisions_risk_row_id_fkey" FOREIGN KEY ("risk_row_id") REFERENCES "risk_rows"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A later stage's reviewer's submitted set: their stage-N decisions reach stage N + 1 at once.
CREATE TABLE "stage_submissions" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "period_id" UUID NOT NULL,
    "stage" INTEGER NOT NULL,
    "reviewer_id" UUID NOT NULL,
    "decision_count" INTEGER NOT NULL DEFAULT 0,
    "submitted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "stage_submissions_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "stage_submissions_period_id_stage_reviewer_id_key" ON "stage_submissions"("period_id", "stage", "reviewer_id");
ALTER TABLE "stage_submissions" ADD CONSTRAINT "stage_submissions_period_id_fkey" FOREIGN KEY ("period_id") REFERENCES "review_periods"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "stage_submissions" ADD CONSTRAINT "stage_submissions_reviewer_id_fkey" FOREIGN KEY ("reviewer_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
