-- Deadlines of a review period (issue 18, points 5 and 7): the points before
-- its end date at which reviewers with pending items are reminded, what
-- closing it does to items still without a decision, which decisions that
-- default wrote (reopening takes them back), and the reminders and
-- escalations sent, one row each, so none is sent twice.
CREATE TYPE "DefaultAtClose" AS ENUM ('pending', 'retain', 'remove');

ALTER TABLE "review_periods"
    ADD COLUMN "reminder_days_before" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    ADD COLUMN "default_decision_at_close" "DefaultAtClose" NOT NULL DEFAULT 'pending';

ALTER TABLE "decisions" ADD COLUMN "applied_at_close" BOOLEAN NOT NULL DEFAULT false;

CREATE TABLE "period_reminders" (
    "period_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "days_before" INTEGER NOT NULL,
    "user_id" UUID NOT NULL,
    "pending_count" INTEGER NOT NULL DEFAULT 0,
    "sent_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "period_reminders_pkey" PRIMARY KEY ("period_id", "kind", "days_before", "user_id")
);

CREATE INDEX "period_reminders_user_id_idx" ON "period_reminders"("user_id");

ALTER TABLE "period_reminders" ADD CONSTRAINT "period_reminders_period_id_fkey" FOREIGN KEY ("period_id") REFERENCES "review_periods"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "period_reminders" ADD CONSTRAINT "period_reminders_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
