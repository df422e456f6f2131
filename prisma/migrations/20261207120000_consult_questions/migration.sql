-- Consult, not guess: a reviewer unsure of a row asks another user a
-- question about it. The question belongs to the period it was asked in and
-- to the row; the answer is kept beside it. A notification can carry a link
-- into the app (the question's page), shown by the bell and the list.
CREATE TABLE "consult_questions" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "period_id" UUID NOT NULL,
    "risk_row_id" BIGINT NOT NULL,
    "asked_by_id" UUID NOT NULL,
    "asked_of_id" UUID NOT NULL,
    "question" TEXT NOT NULL,
    "answer" TEXT,
    "answered_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "consult_questions_pkey" PRIMARY KEY ("id")
);

-- The rows' questions (a page of the queue, a row's delete on a replace).
CREATE INDEX "consult_questions_risk_row_id_period_id_idx" ON "consult_questions"("risk_row_id", "period_id");
-- The questions asked of someone, open first.
CREATE INDEX "consult_questions_asked_of_id_answered_at_idx" ON "consult_questions"("asked_of_id", "answered_at");
CREATE INDEX "consult_questions_asked_by_id_created_at_idx" ON "consult_questions"("asked_by_id", "created_at");
-- The administrators' list of open questions, newest first.
CREATE INDEX "consult_questions_answered_at_created_at_idx" ON "consult_questions"("answered_at", "created_at" DESC);

ALTER TABLE "consult_questions" ADD CONSTRAINT "consult_questions_period_id_fkey" FOREIGN KEY ("period_id") REFERENCES "review_periods"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "consult_questions" ADD CONSTRAINT "consult_questions_risk_row_id_fkey" FOREIGN KEY ("risk_row_id") REFERENCES "risk_rows"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "consult_questions" ADD CONSTRAINT "consult_questions_asked_by_id_fkey" FOREIGN KEY ("asked_by_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "consult_questions" ADD CONSTRAINT "consult_questions_asked_of_id_fkey" FOREIGN KEY ("asked_of_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "notifications" ADD COLUMN "link" TEXT;
