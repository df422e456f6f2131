-- Issue 13 point 7: the dashboard's figures cached per data version (totals,
-- new high-risk users, loads per day and week, categories: each a count over
-- every live row the viewer sees, 1-2 s at 1M rows) were kept in the process
-- only, so the first dashboard after a server start, and every dashboard on
-- another instance, counted them again. kept_figures holds them in the
-- database per data version and key (the figure and the viewer's scope key,
-- hashed: a reviewer's scope names their criteria and moved items), written
-- when computed and read before computing (services/risk-counts.ts kept).
-- Rows of older data versions are deleted when a newer one is written.
CREATE TABLE "kept_figures" (
    "data_version" BIGINT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "computed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "kept_figures_pkey" PRIMARY KEY ("data_version", "key_hash")
);
