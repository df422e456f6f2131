-- AI assist: answers of the AI provider kept by a hash of the exact request
-- (operation, model, prompt), so an identical request is not paid for twice.
CREATE TABLE "ai_response_cache" (
    "request_hash" TEXT NOT NULL,
    "operation" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "response" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ai_response_cache_pkey" PRIMARY KEY ("request_hash")
);

-- Usage statistics read the last 30 days by day, per operation.
CREATE INDEX "ai_usage_operation_created_at_idx" ON "ai_usage"("operation", "created_at");

-- Bulk categorisation of every uncategorised risk id, run as a background job:
-- its progress, spend and cap, so that it resumes after a restart.
CREATE TYPE "AiBulkStatus" AS ENUM ('running', 'completed', 'capped', 'failed');

CREATE TABLE "ai_bulk_runs" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "status" "AiBulkStatus" NOT NULL DEFAULT 'running',
    "total" INTEGER NOT NULL DEFAULT 0,
    "done" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "cost_usd" DECIMAL(12,6) NOT NULL DEFAULT 0,
    "estimated_cost_usd" DECIMAL(12,6) NOT NULL DEFAULT 0,
    "spend_cap_usd" DECIMAL(12,6),
    "error" TEXT,
    "started_by_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "ai_bulk_runs_pkey" PRIMARY KEY ("id")
);

-- At most one run at a time.
CREATE UNIQUE INDEX "ai_bulk_runs_one_running" ON "ai_bulk_runs"("status") WHERE "status" = 'running';
CREATE INDEX "ai_bulk_runs_created_at_idx" ON "ai_bulk_runs"("created_at" DESC);
