-- At most one running turn per session, enforced by the database so that two
-- concurrent sendMessage calls (even on two server processes) cannot both start.
CREATE UNIQUE INDEX "turns_one_active_per_session" ON "turns"("session_id") WHERE "status" IN ('RUNNING', 'WAITING_FOR_TOOL');

-- Liveness of a running turn: a turn whose owner stopped beating is interrupted.
ALTER TABLE "turns" ADD COLUMN "heartbeat_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;
