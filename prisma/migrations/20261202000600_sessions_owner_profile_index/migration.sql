-- The session list's exact totalCount: an index-only count on (owner, profile) instead of a sequential scan of
-- sessions on every list request (10,000 sessions: 1.3 ms instead of 10.6 ms on the bench database).
CREATE INDEX "sessions_user_id_profile_id_idx" ON "sessions"("user_id", "profile_id");
