-- One pending-turn mechanism (issue 31): queued messages, steers and scheduled recalls wait in one table, claimed by
-- one dispatcher under one lease (claimed_by, claimed_at; PENDING_LEASE_MS). kind QUEUE or STEER (a message sent
-- with whileRunning QUEUE / STEER: `message` holds it as it will be appended) or RECALL (`content` is its text,
-- due_at its time, owner and source who scheduled it). A session's entries start one at a time, in the order
-- (coalesce(due_at, created_at), seq), once the session has no active turn. The rows of queued_messages and recalls
-- are carried over with their ids, states, claims and failures; a recall's fired_at becomes dispatched_at.
-- A process of the previous version may still write the old tables while this runs: they are locked first, so the
-- copy sees every row and none is written between the copy and the drop.
LOCK TABLE "queued_messages", "recalls" IN ACCESS EXCLUSIVE MODE;

CREATE TABLE "pending_turns" (
    "id" UUID NOT NULL,
    "session_id" UUID NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "kind" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "message" JSONB,
    "client_tools" JSONB NOT NULL DEFAULT '[]',
    "idempotency_key" TEXT,
    "owner" TEXT,
    "source" TEXT,
    "due_at" TIMESTAMPTZ(3),
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "claimed_by" TEXT,
    "claimed_at" TIMESTAMPTZ(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "turn_id" UUID,
    "message_sequence" INTEGER,
    "dispatched_at" TIMESTAMPTZ(3),
    "cancelled_at" TIMESTAMPTZ(3),
    "failures" INTEGER NOT NULL DEFAULT 0,
    "failure_reason" TEXT,
    "failed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "pending_turns_pkey" PRIMARY KEY ("id")
);

INSERT INTO "pending_turns" (id, session_id, seq, kind, content, message, client_tools, idempotency_key, status,
  claimed_by, claimed_at, turn_id, message_sequence, dispatched_at, cancelled_at, failures, failure_reason, failed_at,
  created_at)
SELECT id, session_id, seq, kind, content, message, client_tools, idempotency_key, status, claimed_by, claimed_at,
  turn_id, message_sequence, dispatched_at, cancelled_at, failures, failure_reason, failed_at, created_at
FROM "queued_messages";
SELECT setval(pg_get_serial_sequence('pending_turns', 'seq'), coalesce((SELECT max(seq) FROM "pending_turns"), 0) + 1,
  false);
INSERT INTO "pending_turns" (id, session_id, kind, content, owner, source, due_at, status, claimed_by, claimed_at,
  attempts, turn_id, message_sequence, dispatched_at, cancelled_at, failures, failure_reason, failed_at, created_at)
SELECT id, session_id, 'RECALL', text, owner, source, due_at, status, claimed_by, claimed_at, attempts, turn_id,
  message_sequence, fired_at, cancelled_at, failures, failure_reason, failed_at, created_at
FROM "recalls" ORDER BY created_at, id;

DROP TABLE "queued_messages";
DROP TABLE "recalls";

CREATE INDEX "pending_turns_session_id_status_seq_idx" ON "pending_turns"("session_id", "status", "seq");
CREATE INDEX "pending_turns_status_due_at_idx" ON "pending_turns"("status", "due_at");
CREATE UNIQUE INDEX "pending_turns_session_id_idempotency_key_key" ON "pending_turns"("session_id", "idempotency_key");
ALTER TABLE "pending_turns" ADD CONSTRAINT "pending_turns_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
