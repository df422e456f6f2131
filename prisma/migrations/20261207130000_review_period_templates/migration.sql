-- Recurring review periods: a template names its periods by a pattern and
-- says how long they run, when reminders go out and what closing does; the
-- recurrence job creates and activates one on each occurrence of its
-- schedule (UTC), waiting while another period is still active.
CREATE TABLE "review_period_templates" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name_pattern" TEXT NOT NULL,
    "description" TEXT,
    "duration_days" INTEGER NOT NULL,
    "reminder_days_before" INTEGER[] DEFAULT ARRAY[]::INTEGER[],
    "default_decision_at_close" "DefaultAtClose" NOT NULL DEFAULT 'pending',
    "schedule" TEXT NOT NULL,
    "cron" TEXT,
    "next_run_at" TIMESTAMPTZ(3) NOT NULL,
    "waiting_for_period_id" UUID,
    "last_period_id" UUID,
    "created_by_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "review_period_templates_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "review_period_templates_schedule_check" CHECK ("schedule" IN ('monthly', 'quarterly', 'yearly', 'cron')),
    CONSTRAINT "review_period_templates_cron_check" CHECK (("schedule" = 'cron') = ("cron" IS NOT NULL)),
    CONSTRAINT "review_period_templates_duration_check" CHECK ("duration_days" > 0)
);

CREATE INDEX "review_period_templates_next_run_at_idx" ON "review_period_templates"("next_run_at");

ALTER TABLE "review_period_templates" ADD CONSTRAINT "review_period_templates_waiting_for_period_id_fkey" FOREIGN KEY ("waiting_for_period_id") REFERENCES "review_periods"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "review_period_templates" ADD CONSTRAINT "review_period_templates_last_period_id_fkey" FOREIGN KEY ("last_period_id") REFERENCES "review_periods"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "review_period_templates" ADD CONSTRAINT "review_period_templates_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
