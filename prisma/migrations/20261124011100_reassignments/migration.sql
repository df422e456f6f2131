-- Delegation and reassignment (issue 18, point 6): each move of an assignment
-- criterion from one reviewer to another, with its note and who moved it, so
-- an item's history shows who held it when. No foreign keys: the history
-- outlives the criterion and the users (labels as shown at the time).
CREATE TABLE "reassignments" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "criteria_id" UUID NOT NULL,
    "criteria_name" TEXT NOT NULL,
    "criteria_type" "CriteriaType" NOT NULL,
    "criteria_value" TEXT NOT NULL,
    "from_reviewer_id" UUID NOT NULL,
    "from_label" TEXT NOT NULL,
    "to_reviewer_id" UUID NOT NULL,
    "to_label" TEXT NOT NULL,
    "by_id" UUID,
    "by_label" TEXT NOT NULL,
    "note" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "reassignments_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "reassignments_criteria_type_criteria_value_idx" ON "reassignments"("criteria_type", "criteria_value");
CREATE INDEX "reassignments_from_reviewer_id_idx" ON "reassignments"("from_reviewer_id");
CREATE INDEX "reassignments_to_reviewer_id_idx" ON "reassignments"("to_reviewer_id");
CREATE INDEX "reassignments_created_at_idx" ON "reassignments"("created_at" DESC);
