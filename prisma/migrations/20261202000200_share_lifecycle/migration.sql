-- Share lifecycle (issue 19, item 3): the live link may expire, and snapshot
-- links show the history as it was when shared (display rows with a sequence
-- number below next_sequence, the name and last activity of that moment).
-- Revoking deletes the rows; a deleted session cascades them away.
ALTER TABLE "session_shares" ADD COLUMN "expires_at" TIMESTAMPTZ(3);

CREATE TABLE "session_share_snapshots" (
    "token" TEXT NOT NULL,
    "session_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3),
    "name" TEXT,
    "last_active" TIMESTAMPTZ(3) NOT NULL,
    "display_count" INTEGER NOT NULL,
    "next_sequence" INTEGER NOT NULL,
    CONSTRAINT "session_share_snapshots_pkey" PRIMARY KEY ("token")
);
CREATE INDEX "session_share_snapshots_session_id_idx" ON "session_share_snapshots"("session_id");
ALTER TABLE "session_share_snapshots" ADD CONSTRAINT "session_share_snapshots_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
