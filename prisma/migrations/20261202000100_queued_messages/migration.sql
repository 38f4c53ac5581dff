-- Double-texting: a message sent while a turn runs, with whileRunning QUEUE
-- (it waits for the turn to end, then starts its own) or STEER (the running
-- turn takes it before its next model call; a STEER row the turn did not
-- take is dispatched like a QUEUE row once the turn ends). Dispatch works
-- like recalls: a process claims the head of a session's queue (status
-- CLAIMED, claimed_by, claimed_at: a lease), then appends the user message,
-- starts the turn and marks the row DISPATCHED in one transaction, so each
-- row is dispatched exactly once across processes and restarts.
CREATE TABLE "queued_messages" (
    "id" UUID NOT NULL,
    "session_id" UUID NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'QUEUE',
    "content" TEXT NOT NULL,
    "message" JSONB NOT NULL,
    "client_tools" JSONB NOT NULL DEFAULT '[]',
    "idempotency_key" TEXT,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "claimed_by" TEXT,
    "claimed_at" TIMESTAMPTZ(3),
    "turn_id" UUID,
    "message_sequence" INTEGER,
    "dispatched_at" TIMESTAMPTZ(3),
    "cancelled_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "queued_messages_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "queued_messages_session_id_status_seq_idx" ON "queued_messages"("session_id", "status", "seq");
CREATE INDEX "queued_messages_status_idx" ON "queued_messages"("status");
CREATE UNIQUE INDEX "queued_messages_session_id_idempotency_key_key" ON "queued_messages"("session_id", "idempotency_key");
ALTER TABLE "queued_messages" ADD CONSTRAINT "queued_messages_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
