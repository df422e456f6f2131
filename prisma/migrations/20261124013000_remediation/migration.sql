-- The remediation list (issue 13 point 6): approved removals, one item per
-- access to revoke (a user's role in a system, under a composite role or
-- directly), for the people who revoke access. Its status (open, done,
-- failed) is set by administrators; the next upload marks a 'done' item
-- verified when the access is absent from the new data, and reopens it when
-- the access is still there. remediation_sources records the approved
-- submissions already listed, so listing new approvals reads only those.
CREATE TYPE "RemediationStatus" AS ENUM ('open', 'done', 'failed', 'verified');

CREATE TABLE "remediation_items" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "period_id" UUID NOT NULL,
    "user_id" TEXT NOT NULL,
    "user_name" TEXT NOT NULL DEFAULT '',
    "system" TEXT NOT NULL,
    "role_profile" TEXT NOT NULL DEFAULT '',
    "composite_role" TEXT NOT NULL DEFAULT '',
    "risk_ids" TEXT NOT NULL DEFAULT '',
    "risk_level" "RiskLevel" NOT NULL,
    "decided_by" TEXT NOT NULL DEFAULT '',
    "approved_by" TEXT NOT NULL DEFAULT '',
    "approved_at" TIMESTAMPTZ(3),
    "status" "RemediationStatus" NOT NULL DEFAULT 'open',
    "status_note" TEXT,
    "status_set_by_id" UUID,
    "status_set_by" TEXT,
    "status_set_at" TIMESTAMPTZ(3),
    "verified_at" TIMESTAMPTZ(3),
    "checked_upload_id" UUID,
    "reopened_count" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "remediation_items_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "remediation_items_access_key" ON "remediation_items"("period_id", "user_id", "system", "role_profile", "composite_role");
CREATE INDEX "remediation_items_status_idx" ON "remediation_items"("status");

CREATE TABLE "remediation_sources" (
    "submission_id" UUID NOT NULL,
    "listed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "remediation_sources_pkey" PRIMARY KEY ("submission_id")
);

ALTER TABLE "remediation_items" ADD CONSTRAINT "remediation_items_period_id_fkey" FOREIGN KEY ("period_id") REFERENCES "review_periods"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "remediation_items" ADD CONSTRAINT "remediation_items_status_set_by_id_fkey" FOREIGN KEY ("status_set_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "remediation_sources" ADD CONSTRAINT "remediation_sources_submission_id_fkey" FOREIGN KEY ("submission_id") REFERENCES "submissions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
