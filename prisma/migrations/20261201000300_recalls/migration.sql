-- Scheduled recalls: a message the service appends to a session at a given
-- time (is_recall = true), answered by a turn. Any server process on the
-- database fires a due row: it claims it (status CLAIMED, claimed_by,
-- claimed_at: a lease another process may take over once it expires), then
-- appends the message, starts the turn and marks the row FIRED in one
-- transaction, so a recall fires exactly once across processes and restarts.
CREATE TABLE "recalls" (
    "id" UUID NOT NULL,
    "session_id" UUID NOT NULL,
    "owner" TEXT,
    "source" TEXT NOT NULL DEFAULT 'USER',
    "due_at" TIMESTAMPTZ(3) NOT NULL,
    "text" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "claimed_by" TEXT,
    "claimed_at" TIMESTAMPTZ(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "message_sequence" INTEGER,
    "turn_id" UUID,
    "fired_at" TIMESTAMPTZ(3),
    "cancelled_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "recalls_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "recalls_status_due_at_idx" ON "recalls"("status", "due_at");
CREATE INDEX "recalls_session_id_status_idx" ON "recalls"("session_id", "status");
ALTER TABLE "recalls" ADD CONSTRAINT "recalls_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
