-- Stable message identity (issue 31 item 4): every stored message version gets a uuid for life, `message_id`,
-- unique within its session. The API's Message id is `Message:<session>:<message_id>` instead of the position
-- (`Message:<session>:<sequence_number>`), so an id never comes to mean another message after undo, redo, revert,
-- edit or regenerate, and two siblings at one position never share one. The id travels with the row: archive
-- (INSERT … SELECT), branches and the redo stack (the message JSON carries `messageId`), redo and branch switches
-- (re-inserted with it). A fork keeps the uuids (its Message ids differ by the session part).
-- Existing rows get one each (a volatile default fills every row with its own value); so do the messages held in
-- branches (session_branches.suffix) and in redo stacks (sessions.metadata.redo.segments[].messages).
ALTER TABLE "session_messages" ADD COLUMN "message_id" UUID NOT NULL DEFAULT gen_random_uuid();
ALTER TABLE "session_messages_archive" ADD COLUMN "message_id" UUID NOT NULL DEFAULT gen_random_uuid();

CREATE UNIQUE INDEX "session_messages_session_id_message_id_key"
  ON "session_messages"("session_id", "message_id");
CREATE UNIQUE INDEX "session_messages_archive_session_id_message_id_key"
  ON "session_messages_archive"("session_id", "message_id");

-- A message JSON array with a fresh messageId on every element that has none, in its order.
CREATE FUNCTION "pg_temp"."with_message_ids"(messages jsonb) RETURNS jsonb LANGUAGE sql VOLATILE AS $$
  SELECT coalesce(jsonb_agg(
           CASE WHEN m ? 'messageId' THEN m ELSE m || jsonb_build_object('messageId', gen_random_uuid()) END
           ORDER BY o), '[]'::jsonb)
    FROM jsonb_array_elements(messages) WITH ORDINALITY AS x(m, o)
$$;

UPDATE "session_branches" SET "suffix" = pg_temp.with_message_ids("suffix")
 WHERE jsonb_typeof("suffix") = 'array' AND jsonb_array_length("suffix") > 0;

UPDATE "sessions" SET "metadata" = jsonb_set("metadata", '{redo,segments}', (
    SELECT jsonb_agg(
             CASE WHEN jsonb_typeof(s -> 'messages') = 'array'
                  THEN s || jsonb_build_object('messages', pg_temp.with_message_ids(s -> 'messages'))
                  ELSE s END
             ORDER BY o)
      FROM jsonb_array_elements("metadata" -> 'redo' -> 'segments') WITH ORDINALITY AS x(s, o)))
 WHERE jsonb_typeof("metadata" -> 'redo' -> 'segments') = 'array'
   AND jsonb_array_length("metadata" -> 'redo' -> 'segments') > 0;
DROP FUNCTION pg_temp.with_message_ids(jsonb);
