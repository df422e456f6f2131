-- Per-user rate limits on expensive operations (exports), shared by every
-- instance: one counter row per (action and user) and fixed window.
CREATE TABLE "rate_limits" (
    "key" TEXT NOT NULL,
    "window_start" TIMESTAMPTZ(3) NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "rate_limits_pkey" PRIMARY KEY ("key", "window_start")
);
CREATE INDEX "rate_limits_window_start_idx" ON "rate_limits"("window_start");
