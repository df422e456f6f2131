-- A stage's end date reminds that stage's reviewers at the period's reminder
-- points: each message is recorded once per stage as well (0 is the period's
-- own end date, as every message sent before was).
ALTER TABLE "period_reminders" ADD COLUMN "stage" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "period_reminders" DROP CONSTRAINT "period_reminders_pkey";
ALTER TABLE "period_reminders" ADD CONSTRAINT "period_reminders_pkey" PRIMARY KEY ("period_id", "kind", "stage", "days_before", "user_id");
