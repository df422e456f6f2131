-- Issue 18, point 6: single items move between reviewers, not only whole
-- criteria. item_holds overrides the criteria per row and reviewer (holds:
-- given to them; not holds: given away); a reassignment records either a
-- criterion or the rows it moved.
CREATE TABLE "item_holds" (
    "risk_row_id" BIGINT NOT NULL,
    "reviewer_id" UUID NOT NULL,
    "holds" BOOLEAN NOT NULL,
    "since" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "item_holds_pkey" PRIMARY KEY ("risk_row_id", "reviewer_id")
);
CREATE INDEX "item_holds_reviewer_id_idx" ON "item_holds"("reviewer_id");
ALTER TABLE "item_holds" ADD CONSTRAINT "item_holds_reviewer_id_fkey" FOREIGN KEY ("reviewer_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "reassignments" ALTER COLUMN "criteria_id" DROP NOT NULL,
  ALTER COLUMN "criteria_name" DROP NOT NULL,
  ALTER COLUMN "criteria_type" DROP NOT NULL,
  ALTER COLUMN "criteria_value" DROP NOT NULL,
  ADD COLUMN "risk_row_ids" BIGINT[] DEFAULT ARRAY[]::BIGINT[];
CREATE INDEX "reassignments_risk_row_ids_idx" ON "reassignments" USING GIN ("risk_row_ids");
