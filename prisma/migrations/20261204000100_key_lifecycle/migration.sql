-- Key management (docs/security.md "Managing keys and users"): a key may expire, be revoked, or be replaced by a
-- rotation (the old key then expires at the end of the grace period and names its successor); a user may be
-- disabled, which refuses every credential of theirs (API keys and JWTs) until enabled again.
ALTER TABLE "api_keys"
  ADD COLUMN "expires_at" TIMESTAMPTZ(3),
  ADD COLUMN "revoked_at" TIMESTAMPTZ(3),
  ADD COLUMN "replaced_by_id" UUID;
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_replaced_by_id_fkey" FOREIGN KEY ("replaced_by_id")
  REFERENCES "api_keys"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "users" ADD COLUMN "disabled_at" TIMESTAMPTZ(3);

-- A user message's turn (Message.turn): the turn that answered the message at that sequence number.
CREATE INDEX "turns_session_id_user_sequence_idx" ON "turns"("session_id", "user_sequence");
