-- Conflicts that join or leave the active review period after it started.
-- A row of an 'append' upload that went live after the period started is new
-- since the upload's completion (read from the upload, nothing per row); a
-- 'replace' upload records here only its rows that are new to the period:
-- those whose conflict was not in the data it replaced, and those carrying
-- an earlier arrival forward. No foreign key to risk_rows: deleting the
-- millions of rows a 'replace' took out of use checks nothing more, and an
-- arrival of a row no longer there is never read (rows are read first).
CREATE TABLE "period_row_arrivals" (
    "risk_row_id" BIGINT NOT NULL,
    "period_id" UUID NOT NULL,
    "joined_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "period_row_arrivals_pkey" PRIMARY KEY ("risk_row_id")
);

CREATE INDEX "period_row_arrivals_period_id_joined_at_idx" ON "period_row_arrivals"("period_id", "joined_at");

ALTER TABLE "period_row_arrivals" ADD CONSTRAINT "period_row_arrivals_period_id_fkey" FOREIGN KEY ("period_id") REFERENCES "review_periods"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Conflicts pending in the active period that a 'replace' upload no longer
-- contains: resolved before decision. Their rows are purged with the data
-- they belonged to, so what the evidence names is copied here.
CREATE TABLE "period_resolved_rows" (
    "id" BIGSERIAL NOT NULL,
    "period_id" UUID NOT NULL,
    "upload_id" UUID,
    "user_id" TEXT NOT NULL,
    "user_name" TEXT NOT NULL DEFAULT '',
    "access_risk_id" TEXT NOT NULL,
    "risk_description" TEXT NOT NULL DEFAULT '',
    "risk_level" "RiskLevel" NOT NULL,
    "system" TEXT NOT NULL,
    "role_profile" TEXT NOT NULL DEFAULT '',
    "composite_business_role" TEXT NOT NULL DEFAULT '',
    "resolved_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "period_resolved_rows_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "period_resolved_rows_period_id_id_idx" ON "period_resolved_rows"("period_id", "id");

ALTER TABLE "period_resolved_rows" ADD CONSTRAINT "period_resolved_rows_period_id_fkey" FOREIGN KEY ("period_id") REFERENCES "review_periods"("id") ON DELETE CASCADE ON UPDATE CASCADE;
