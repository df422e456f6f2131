-- Initial schema: the whole product's data model (prisma/schema.prisma).

-- Extensions (trigram search on the risk queue)
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- CreateEnum
CREATE TYPE "Role" AS ENUM ('admin', 'reviewer');
CREATE TYPE "PeriodStatus" AS ENUM ('active', 'closed');
CREATE TYPE "UploadStatus" AS ENUM ('processing', 'completed', 'failed');
CREATE TYPE "UploadMode" AS ENUM ('append', 'replace');
CREATE TYPE "RiskLevel" AS ENUM ('high', 'medium', 'low');
CREATE TYPE "DecisionValue" AS ENUM ('retain', 'remove', 'retain_mitigated');
CREATE TYPE "SubmissionStatus" AS ENUM ('submitted', 'recalled', 'approved', 'returned');
CREATE TYPE "CriteriaType" AS ENUM ('risk_id', 'user_id', 'user_group', 'system', 'role_profile');
CREATE TYPE "NotificationType" AS ENUM ('general', 'info', 'warning', 'urgent');
CREATE TYPE "NotificationTarget" AS ENUM ('all', 'specific');
CREATE TYPE "AnalysisStatus" AS ENUM ('red', 'green');

-- CreateTable
CREATE TABLE "users" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "email" TEXT NOT NULL,
    "first_name" TEXT NOT NULL,
    "last_name" TEXT NOT NULL DEFAULT '',
    "role" "Role" NOT NULL,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "password_hash" TEXT,
    "password_reset_required" BOOLEAN NOT NULL DEFAULT false,
    "external_subject" TEXT,
    "last_login_at" TIMESTAMPTZ(3),
    "last_seen_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "sessions" (
    "id" TEXT NOT NULL,
    "user_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "user_agent" TEXT,
    "ip" TEXT,

    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "api_tokens" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "user_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_tokens_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "login_throttle" (
    "key" TEXT NOT NULL,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "first_failure_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "locked_until" TIMESTAMPTZ(3),

    CONSTRAINT "login_throttle_pkey" PRIMARY KEY ("key")
);

CREATE TABLE "review_periods" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" TEXT NOT NULL,
    "description" TEXT,
    "start_date" TIMESTAMPTZ(3) NOT NULL,
    "end_date" TIMESTAMPTZ(3),
    "status" "PeriodStatus" NOT NULL DEFAULT 'active',
    "created_by_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closed_at" TIMESTAMPTZ(3),

    CONSTRAINT "review_periods_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "uploads" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "original_name" TEXT NOT NULL,
    "file_name" TEXT NOT NULL,
    "size_bytes" BIGINT NOT NULL DEFAULT 0,
    "status" "UploadStatus" NOT NULL DEFAULT 'processing',
    "mode" "UploadMode" NOT NULL DEFAULT 'append',
    "skip_duplicates" BOOLEAN NOT NULL DEFAULT true,
    "batch_size" INTEGER NOT NULL DEFAULT 50000,
    "email_notification" BOOLEAN NOT NULL DEFAULT true,
    "record_count" INTEGER NOT NULL DEFAULT 0,
    "rows_processed" INTEGER NOT NULL DEFAULT 0,
    "bytes_processed" BIGINT NOT NULL DEFAULT 0,
    "duplicates_skipped" INTEGER NOT NULL DEFAULT 0,
    "column_mapping" JSONB,
    "unknown_columns" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "error_message" TEXT,
    "uploaded_by_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "completed_at" TIMESTAMPTZ(3),

    CONSTRAINT "uploads_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "risk_rows" (
    "id" BIGSERIAL NOT NULL,
    "upload_id" UUID,
    "user_id" TEXT NOT NULL,
    "user_name" TEXT NOT NULL DEFAULT '',
    "user_group" TEXT NOT NULL DEFAULT '',
    "access_risk_id" TEXT NOT NULL,
    "risk_description" TEXT NOT NULL DEFAULT '',
    "risk_level" "RiskLevel" NOT NULL,
    "risk_level_label" TEXT NOT NULL DEFAULT '',
    "risk_type" TEXT NOT NULL DEFAULT '',
    "rule_id" TEXT NOT NULL DEFAULT '',
    "org_rule_id" TEXT NOT NULL DEFAULT '',
    "org_level" TEXT NOT NULL DEFAULT '',
    "org_value" TEXT NOT NULL DEFAULT '',
    "business_process" TEXT NOT NULL DEFAULT '',
    "business_process_description" TEXT NOT NULL DEFAULT '',
    "function" TEXT NOT NULL DEFAULT '',
    "function_description" TEXT NOT NULL DEFAULT '',
    "system" TEXT NOT NULL,
    "action" TEXT NOT NULL DEFAULT '',
    "action_description" TEXT NOT NULL DEFAULT '',
    "resource" TEXT NOT NULL DEFAULT '',
    "resource_description" TEXT NOT NULL DEFAULT '',
    "resource_extn" TEXT NOT NULL DEFAULT '',
    "resource_extn_desc" TEXT NOT NULL DEFAULT '',
    "value_from" TEXT NOT NULL DEFAULT '',
    "value_to" TEXT NOT NULL DEFAULT '',
    "role_profile" TEXT NOT NULL DEFAULT '',
    "role_profile_description" TEXT NOT NULL DEFAULT '',
    "composite_business_role" TEXT NOT NULL DEFAULT '',
    "composite_role_description" TEXT NOT NULL DEFAULT '',
    "mitigation_control" TEXT NOT NULL DEFAULT '',
    "mitigation_control_description" TEXT NOT NULL DEFAULT '',
    "monitor" TEXT NOT NULL DEFAULT '',
    "monitor_name" TEXT NOT NULL DEFAULT '',
    "short_description" TEXT NOT NULL DEFAULT '',
    "execution_count" INTEGER,
    "last_executed_on" DATE,
    "row_hash" TEXT,
    "ai_suggested_category" TEXT,
    "ai_category_confidence" DOUBLE PRECISION,
    "ai_processed_at" TIMESTAMPTZ(3),
    "ai_category_accepted" BOOLEAN,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "risk_rows_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "decisions" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "period_id" UUID NOT NULL,
    "reviewer_id" UUID NOT NULL,
    "risk_row_id" BIGINT NOT NULL,
    "decision" "DecisionValue" NOT NULL,
    "via_composite_role" BOOLEAN NOT NULL DEFAULT false,
    "comments" TEXT,
    "mitigation_control" TEXT,
    "mitigation_expires_at" DATE,
    "submission_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "decisions_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "submissions" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "period_id" UUID NOT NULL,
    "reviewer_id" UUID NOT NULL,
    "status" "SubmissionStatus" NOT NULL DEFAULT 'submitted',
    "decision_count" INTEGER NOT NULL DEFAULT 0,
    "submitted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "recalled_at" TIMESTAMPTZ(3),
    "reviewed_by_id" UUID,
    "reviewed_at" TIMESTAMPTZ(3),
    "review_comment" TEXT,

    CONSTRAINT "submissions_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "assignment_criteria" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "name" TEXT NOT NULL,
    "reviewer_id" UUID NOT NULL,
    "criteria_type" "CriteriaType" NOT NULL,
    "criteria_value" TEXT NOT NULL,
    "assigned_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "assignment_criteria_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "notifications" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "type" "NotificationType" NOT NULL DEFAULT 'general',
    "title" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "sender_id" UUID,
    "sender_name" TEXT,
    "target_type" "NotificationTarget" NOT NULL DEFAULT 'all',
    "target_user_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notifications_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "notification_reads" (
    "notification_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "read_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notification_reads_pkey" PRIMARY KEY ("notification_id","user_id")
);

CREATE TABLE "admin_settings" (
    "setting_key" TEXT NOT NULL,
    "setting_value" TEXT NOT NULL,
    "description" TEXT,
    "is_encrypted" BOOLEAN NOT NULL DEFAULT false,
    "updated_by_id" UUID,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "admin_settings_pkey" PRIMARY KEY ("setting_key")
);

CREATE TABLE "ai_usage" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "user_id" UUID,
    "operation" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "prompt_tokens" INTEGER NOT NULL DEFAULT 0,
    "completion_tokens" INTEGER NOT NULL DEFAULT 0,
    "total_tokens" INTEGER NOT NULL DEFAULT 0,
    "cost_usd" DECIMAL(12,6) NOT NULL DEFAULT 0,
    "success" BOOLEAN NOT NULL,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ai_usage_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "analysis_results" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "subject_user_id" TEXT NOT NULL,
    "status" "AnalysisStatus" NOT NULL,
    "risk_breakdown" JSONB NOT NULL,
    "created_by_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "analysis_results_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "simulations" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "subject_user_id" TEXT NOT NULL,
    "access_risk_id" TEXT NOT NULL,
    "scenarios" JSONB NOT NULL,
    "result" JSONB,
    "created_by_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "simulations_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "ai_risk_profiles" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "access_risk_id" TEXT NOT NULL,
    "profile" JSONB NOT NULL,
    "model" TEXT NOT NULL,
    "created_by_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ai_risk_profiles_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "audit_events" (
    "id" BIGSERIAL NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor_id" UUID,
    "actor_label" TEXT NOT NULL DEFAULT '',
    "action" TEXT NOT NULL,
    "entity_type" TEXT NOT NULL,
    "entity_id" TEXT,
    "period_id" UUID,
    "before" JSONB,
    "after" JSONB,
    "ip" TEXT,

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");
CREATE UNIQUE INDEX "users_external_subject_key" ON "users"("external_subject");
CREATE INDEX "users_role_is_active_idx" ON "users"("role", "is_active");
CREATE INDEX "sessions_user_id_idx" ON "sessions"("user_id");
CREATE INDEX "sessions_expires_at_idx" ON "sessions"("expires_at");
CREATE UNIQUE INDEX "api_tokens_token_hash_key" ON "api_tokens"("token_hash");
CREATE INDEX "api_tokens_user_id_idx" ON "api_tokens"("user_id");
CREATE INDEX "review_periods_status_created_at_idx" ON "review_periods"("status", "created_at" DESC);
CREATE INDEX "uploads_created_at_idx" ON "uploads"("created_at" DESC);
CREATE INDEX "uploads_status_idx" ON "uploads"("status");
CREATE INDEX "risk_rows_upload_id_idx" ON "risk_rows"("upload_id");
CREATE INDEX "risk_rows_user_id_composite_business_role_idx" ON "risk_rows"("user_id", "composite_business_role");
CREATE INDEX "risk_rows_access_risk_id_idx" ON "risk_rows"("access_risk_id");
CREATE INDEX "risk_rows_user_group_idx" ON "risk_rows"("user_group");
CREATE INDEX "risk_rows_system_idx" ON "risk_rows"("system");
CREATE INDEX "risk_rows_role_profile_idx" ON "risk_rows"("role_profile");
CREATE INDEX "risk_rows_risk_level_idx" ON "risk_rows"("risk_level");
CREATE INDEX "risk_rows_row_hash_idx" ON "risk_rows"("row_hash");
CREATE INDEX "risk_rows_user_name_trgm_idx" ON "risk_rows" USING GIN ("user_name" gin_trgm_ops);
CREATE INDEX "risk_rows_risk_description_trgm_idx" ON "risk_rows" USING GIN ("risk_description" gin_trgm_ops);
CREATE INDEX "decisions_risk_row_id_idx" ON "decisions"("risk_row_id");
CREATE INDEX "decisions_reviewer_id_period_id_idx" ON "decisions"("reviewer_id", "period_id");
CREATE INDEX "decisions_submission_id_idx" ON "decisions"("submission_id");
CREATE UNIQUE INDEX "decisions_period_id_reviewer_id_risk_row_id_key" ON "decisions"("period_id", "reviewer_id", "risk_row_id");
CREATE INDEX "submissions_period_id_reviewer_id_submitted_at_idx" ON "submissions"("period_id", "reviewer_id", "submitted_at" DESC);
CREATE INDEX "submissions_status_idx" ON "submissions"("status");
CREATE INDEX "assignment_criteria_criteria_type_criteria_value_idx" ON "assignment_criteria"("criteria_type", "criteria_value");
CREATE UNIQUE INDEX "assignment_criteria_reviewer_id_criteria_type_criteria_value_key" ON "assignment_criteria"("reviewer_id", "criteria_type", "criteria_value");
CREATE INDEX "notifications_target_type_created_at_idx" ON "notifications"("target_type", "created_at" DESC);
CREATE INDEX "notifications_target_user_id_created_at_idx" ON "notifications"("target_user_id", "created_at" DESC);
CREATE INDEX "notification_reads_user_id_idx" ON "notification_reads"("user_id");
CREATE INDEX "ai_usage_created_at_idx" ON "ai_usage"("created_at");
CREATE INDEX "analysis_results_subject_user_id_created_at_idx" ON "analysis_results"("subject_user_id", "created_at" DESC);
CREATE INDEX "simulations_created_at_idx" ON "simulations"("created_at" DESC);
CREATE INDEX "ai_risk_profiles_access_risk_id_created_at_idx" ON "ai_risk_profiles"("access_risk_id", "created_at" DESC);
CREATE INDEX "audit_events_occurred_at_idx" ON "audit_events"("occurred_at");
CREATE INDEX "audit_events_entity_type_entity_id_idx" ON "audit_events"("entity_type", "entity_id");
CREATE INDEX "audit_events_period_id_occurred_at_idx" ON "audit_events"("period_id", "occurred_at");
CREATE INDEX "audit_events_actor_id_occurred_at_idx" ON "audit_events"("actor_id", "occurred_at");

-- AddForeignKey
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "review_periods" ADD CONSTRAINT "review_periods_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_uploaded_by_id_fkey" FOREIGN KEY ("uploaded_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "risk_rows" ADD CONSTRAINT "risk_rows_upload_id_fkey" FOREIGN KEY ("upload_id") REFERENCES "uploads"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "decisions" ADD CONSTRAINT "decisions_period_id_fkey" FOREIGN KEY ("period_id") REFERENCES "review_periods"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "decisions" ADD CONSTRAINT "decisions_reviewer_id_fkey" FOREIGN KEY ("reviewer_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "decisions" ADD CONSTRAINT "decisions_risk_row_id_fkey" FOREIGN KEY ("risk_row_id") REFERENCES "risk_rows"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "decisions" ADD CONSTRAINT "decisions_submission_id_fkey" FOREIGN KEY ("submission_id") REFERENCES "submissions"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_period_id_fkey" FOREIGN KEY ("period_id") REFERENCES "review_periods"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_reviewer_id_fkey" FOREIGN KEY ("reviewer_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_reviewed_by_id_fkey" FOREIGN KEY ("reviewed_by_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "assignment_criteria" ADD CONSTRAINT "assignment_criteria_reviewer_id_fkey" FOREIGN KEY ("reviewer_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_sender_id_fkey" FOREIGN KEY ("sender_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_target_user_id_fkey" FOREIGN KEY ("target_user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "notification_reads" ADD CONSTRAINT "notification_reads_notification_id_fkey" FOREIGN KEY ("notification_id") REFERENCES "notifications"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "notification_reads" ADD CONSTRAINT "notification_reads_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "ai_usage" ADD CONSTRAINT "ai_usage_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_actor_id_fkey" FOREIGN KEY ("actor_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Beyond what schema.prisma can express (listed in api/test/schema-drift.test.ts):

-- At most one active review period, enforced by the database.
CREATE UNIQUE INDEX "review_periods_one_active_key" ON "review_periods"("status") WHERE "status" = 'active';

-- The audit trail is append-only: no UPDATE or DELETE, whoever asks.
CREATE FUNCTION "audit_events_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP;
END;
$$;
CREATE TRIGGER "audit_events_no_update" BEFORE UPDATE OR DELETE ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION "audit_events_append_only"();
CREATE TRIGGER "audit_events_no_truncate" BEFORE TRUNCATE ON "audit_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_append_only"();
