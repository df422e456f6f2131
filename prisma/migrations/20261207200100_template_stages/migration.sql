-- The stages a recurring template's periods get (services/stages/stage-plan.ts
-- templateStageSchema: each deadline a number of days after the period opens);
-- NULL: one stage reviewed by the assignment criteria, as before.
ALTER TABLE "review_period_templates" ADD COLUMN "stages" JSONB;
