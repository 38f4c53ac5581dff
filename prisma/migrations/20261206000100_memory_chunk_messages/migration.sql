-- Recall follows the current path (issue 33 item 6): a memory chunk names the stored message versions it was cut
-- from (`message_ids`, their stable `message_id`s). Recall and memorySearch only see a chunk whose messages are all
-- on the session's current path (in session_messages or session_messages_archive), so an undone or edited-away
-- exchange (moved to the redo stack or a branch) is not recalled, and comes back with redo or a branch switch.
-- Chunks written before this migration keep an empty list and stay visible (their origin is unknown).
ALTER TABLE "memory_chunks" ADD COLUMN "message_ids" UUID[] DEFAULT '{}';
