-- A pending entry (queued message, steer, recall) whose dispatch fails PENDING_MAX_ATTEMPTS times is parked FAILED
-- with its reason instead of being retried forever (issue 31).
ALTER TABLE "queued_messages" ADD COLUMN "failures" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "queued_messages" ADD COLUMN "failure_reason" TEXT;
ALTER TABLE "queued_messages" ADD COLUMN "failed_at" TIMESTAMPTZ(3);
ALTER TABLE "recalls" ADD COLUMN "failures" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "recalls" ADD COLUMN "failure_reason" TEXT;
ALTER TABLE "recalls" ADD COLUMN "failed_at" TIMESTAMPTZ(3);
