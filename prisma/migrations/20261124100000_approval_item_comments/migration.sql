-- Approval that means something (issue 18, point 8): an administrator
-- approving or returning a submission may comment on single items; the
-- comments are kept with the submission (shown to the reviewer, in the audit
-- trail and in the evidence file).
CREATE TABLE "submission_item_comments" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "submission_id" UUID NOT NULL,
    "risk_row_id" BIGINT NOT NULL,
    "comment" TEXT NOT NULL,
    "author_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "submission_item_comments_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "submission_item_comments_submission_id_risk_row_id_key" ON "submission_item_comments"("submission_id", "risk_row_id");

ALTER TABLE "submission_item_comments" ADD CONSTRAINT "submission_item_comments_submission_id_fkey" FOREIGN KEY ("submission_id") REFERENCES "submissions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "submission_item_comments" ADD CONSTRAINT "submission_item_comments_risk_row_id_fkey" FOREIGN KEY ("risk_row_id") REFERENCES "risk_rows"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "submission_item_comments" ADD CONSTRAINT "submission_item_comments_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
