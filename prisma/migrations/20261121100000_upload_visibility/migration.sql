-- Uploads become visible only when completely loaded (live), a replace
-- supersedes the previous ones, and a heartbeat tells a dead worker.
ALTER TABLE "uploads" ADD COLUMN "live" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "uploads" ADD COLUMN "superseded_at" TIMESTAMPTZ(3);
ALTER TABLE "uploads" ADD COLUMN "heartbeat_at" TIMESTAMPTZ(3);
CREATE INDEX "uploads_live_idx" ON "uploads"("live");
