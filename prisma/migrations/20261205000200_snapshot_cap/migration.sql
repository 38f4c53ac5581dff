-- At most 100 snapshot share links per session, enforced here so that concurrent shareSession(snapshot: true)
-- calls cannot pass it (a count in the service saw 99 in each of 10 parallel calls and let 101 in).
-- Each insert takes a transaction-scoped advisory lock on its session (two-int key: class 31005, the session's
-- hash; a hash collision only makes two sessions' snapshot inserts wait for each other), then counts the rows
-- committed before it: the count statement runs after the lock is granted, so it sees every earlier insert.
-- Over the cap the insert fails with SQLSTATE 23514 and the message the service maps to BAD_USER_INPUT.
-- The number is the service's MAX_SNAPSHOT_LINKS (src/sessions/share.ts; test/share-snapshot-cap.test.ts).
CREATE FUNCTION "session_share_snapshots_cap"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(31005, hashtext(NEW."session_id"::text));
  IF (SELECT count(*) FROM "session_share_snapshots" WHERE "session_id" = NEW."session_id") >= 100 THEN
    RAISE EXCEPTION 'session_share_snapshots_cap: a session holds at most 100 snapshot links'
      USING ERRCODE = '23514', CONSTRAINT = 'session_share_snapshots_cap';
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER "session_share_snapshots_cap" BEFORE INSERT ON "session_share_snapshots"
  FOR EACH ROW EXECUTE FUNCTION "session_share_snapshots_cap"();
