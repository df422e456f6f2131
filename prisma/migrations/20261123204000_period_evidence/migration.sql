-- Auditor evidence of a closed review period, frozen when it closes: the
-- period's scope and summary (scope) and its final decisions, one record each
-- (with the risk row's details and who decided and approved), so that the
-- evidence downloaded later never changes, even when a later upload replaces
-- the rows the decisions were made on. Reopening a period removes its frozen
-- evidence; closing it again freezes it anew.
CREATE TABLE "period_evidence" (
    "period_id" UUID NOT NULL,
    "frozen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "scope" JSONB NOT NULL,
    CONSTRAINT "period_evidence_pkey" PRIMARY KEY ("period_id")
);

CREATE TABLE "period_evidence_decisions" (
    "period_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "record" JSONB NOT NULL,
    CONSTRAINT "period_evidence_decisions_pkey" PRIMARY KEY ("period_id", "seq")
);

ALTER TABLE "period_evidence" ADD CONSTRAINT "period_evidence_period_id_fkey" FOREIGN KEY ("period_id") REFERENCES "review_periods"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "period_evidence_decisions" ADD CONSTRAINT "period_evidence_decisions_period_id_fkey" FOREIGN KEY ("period_id") REFERENCES "period_evidence"("period_id") ON DELETE CASCADE ON UPDATE CASCADE;
