-- Versions of a period's frozen evidence, never replaced: each close freezes
-- version n + 1 beside the earlier ones (a reopen no longer removes them), and
-- each version has its signed bundle (a ZIP written after the close commits,
-- under DATA_DIR/evidence), kept until the retention setting expires it.
ALTER TABLE "period_evidence_decisions" DROP CONSTRAINT "period_evidence_decisions_period_id_fkey";
ALTER TABLE "period_evidence_decisions" DROP CONSTRAINT "period_evidence_decisions_pkey";
ALTER TABLE "period_evidence" DROP CONSTRAINT "period_evidence_pkey";
ALTER TABLE "period_evidence" ADD COLUMN "version" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "period_evidence_decisions" ADD COLUMN "version" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "period_evidence" ALTER COLUMN "version" DROP DEFAULT;
ALTER TABLE "period_evidence_decisions" ALTER COLUMN "version" DROP DEFAULT;
ALTER TABLE "period_evidence" ADD CONSTRAINT "period_evidence_pkey" PRIMARY KEY ("period_id", "version");
ALTER TABLE "period_evidence_decisions" ADD CONSTRAINT "period_evidence_decisions_pkey" PRIMARY KEY ("period_id", "version", "seq");
ALTER TABLE "period_evidence_decisions" ADD CONSTRAINT "period_evidence_decisions_period_id_version_fkey" FOREIGN KEY ("period_id", "version") REFERENCES "period_evidence"("period_id", "version") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "evidence_bundles" (
    "period_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'writing',
    "file_name" TEXT,
    "sha256" TEXT,
    "size_bytes" BIGINT,
    "manifest_sha256" TEXT,
    "timestamped" BOOLEAN NOT NULL DEFAULT false,
    "error_message" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "written_at" TIMESTAMPTZ(3),
    "expired_at" TIMESTAMPTZ(3),
    CONSTRAINT "evidence_bundles_pkey" PRIMARY KEY ("period_id", "version")
);

ALTER TABLE "evidence_bundles" ADD CONSTRAINT "evidence_bundles_period_id_version_fkey" FOREIGN KEY ("period_id", "version") REFERENCES "period_evidence"("period_id", "version") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE INDEX "evidence_bundles_status_created_at_idx" ON "evidence_bundles"("status", "created_at");
