-- A chat id a client made itself (the AI SDK's useChat makes its own): POST /api/chat creates the session on first
-- use and finds it again by (owner, external id). Sessions without one (every other door) keep NULL, which the unique
-- index never compares.
ALTER TABLE "sessions" ADD COLUMN "external_id" TEXT;
CREATE UNIQUE INDEX "sessions_user_id_external_id_key" ON "sessions"("user_id", "external_id");
