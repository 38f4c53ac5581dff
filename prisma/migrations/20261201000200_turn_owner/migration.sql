-- The stable identity of the server instance that runs a turn (INSTANCE_ID):
-- a restarted process recognises the turns its previous incarnation left
-- running and ends them at once, instead of waiting for their heartbeat to go stale.
ALTER TABLE "turns" ADD COLUMN "owner_instance" TEXT;
