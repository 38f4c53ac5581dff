-- The session list's exact totalCount without counting sessions: every insert, delete or change of owner/profile
-- on sessions appends a signed delta here, and the list sums its scope's deltas (a handful of rows once
-- compacted) instead of walking the owner's index entries. Append-only, so writers never wait on a shared
-- counter row: a long import holds no lock another session's create needs, and no two writers can deadlock on it.
-- The service compacts an owner's deltas into one row per profile when it sees too many.
-- "owned" is false for ownerless (legacy) sessions, whose owner is then ''.
-- No session is written between the backfill and the triggers (a process still on the old version waits here).
LOCK TABLE "sessions" IN SHARE ROW EXCLUSIVE MODE;

CREATE TABLE "session_count_deltas" (
    "id" BIGSERIAL NOT NULL,
    "owned" BOOLEAN NOT NULL,
    "owner" TEXT NOT NULL,
    "profile_id" UUID NOT NULL,
    "n" INTEGER NOT NULL,

    CONSTRAINT "session_count_deltas_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "session_count_deltas_owned_owner_profile_id_idx" ON "session_count_deltas"("owned", "owner", "profile_id");

INSERT INTO "session_count_deltas" ("owned", "owner", "profile_id", "n")
SELECT "user_id" IS NOT NULL, coalesce("user_id", ''), "profile_id", count(*)::int
FROM "sessions" GROUP BY 1, 2, 3;

CREATE FUNCTION "session_count_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "session_count_deltas" ("owned", "owner", "profile_id", "n")
  SELECT "user_id" IS NOT NULL, coalesce("user_id", ''), "profile_id", count(*)::int
  FROM "added" GROUP BY 1, 2, 3;
  RETURN NULL;
END $$;

CREATE FUNCTION "session_count_deleted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "session_count_deltas" ("owned", "owner", "profile_id", "n")
  SELECT "user_id" IS NOT NULL, coalesce("user_id", ''), "profile_id", -count(*)::int
  FROM "removed" GROUP BY 1, 2, 3;
  RETURN NULL;
END $$;

CREATE FUNCTION "session_count_moved"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "session_count_deltas" ("owned", "owner", "profile_id", "n") VALUES
    (OLD."user_id" IS NOT NULL, coalesce(OLD."user_id", ''), OLD."profile_id", -1),
    (NEW."user_id" IS NOT NULL, coalesce(NEW."user_id", ''), NEW."profile_id", 1);
  RETURN NULL;
END $$;

CREATE TRIGGER "sessions_count_insert" AFTER INSERT ON "sessions"
  REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "session_count_inserted"();
CREATE TRIGGER "sessions_count_delete" AFTER DELETE ON "sessions"
  REFERENCING OLD TABLE AS "removed" FOR EACH STATEMENT EXECUTE FUNCTION "session_count_deleted"();
CREATE TRIGGER "sessions_count_move" AFTER UPDATE OF "user_id", "profile_id" ON "sessions"
  FOR EACH ROW WHEN (OLD."user_id" IS DISTINCT FROM NEW."user_id" OR OLD."profile_id" IS DISTINCT FROM NEW."profile_id")
  EXECUTE FUNCTION "session_count_moved"();
