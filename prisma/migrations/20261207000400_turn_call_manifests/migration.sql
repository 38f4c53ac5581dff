-- A per-call manifest (issue 33 item 5): for each model call of a turn, what was sent, as references and hashes
-- (message ids, content hashes, injected parts, tokens per part), never copies. Bounded per call (src/domain/
-- call-manifest.ts MANIFEST_MAX_*); the rows go with their turn (and the turn with its session).
CREATE TABLE "turn_calls" (
    "id" BIGSERIAL NOT NULL,
    "turn_id" UUID NOT NULL,
    "session_id" UUID NOT NULL,
    "call_index" INTEGER NOT NULL,
    "model" TEXT NOT NULL,
    "estimated_tokens" INTEGER NOT NULL,
    "prompt_tokens" INTEGER,
    "manifest" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "turn_calls_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "turn_calls_turn_id_call_index_key" ON "turn_calls"("turn_id", "call_index");
CREATE INDEX "turn_calls_session_id_id_idx" ON "turn_calls"("session_id", "id");

ALTER TABLE "turn_calls" ADD CONSTRAINT "turn_calls_turn_id_fkey" FOREIGN KEY ("turn_id") REFERENCES "turns"("id")
    ON DELETE CASCADE ON UPDATE CASCADE;
