-- A JWT identity is its (issuer, subject) and owns its own users row, never
-- the API-key user that happens to have the same name. Before this, a JWT's
-- subject was looked up as a user *name* and its admin/permissions claims were
-- written into that row, so one token could demote or promote an API-key user.
-- Claims now grant rights for their request only (src/auth/auth.ts) and
-- is_admin/permissions of a JWT row stay at their defaults.
ALTER TABLE "users" ADD COLUMN "jwt_issuer" TEXT, ADD COLUMN "jwt_subject" TEXT;

-- API-key users keep unique names; a JWT row's name is only its subject for
-- display and may repeat an API-key user's name (schema.prisma cannot declare
-- a partial unique index: test/migrations.test.ts lists it as hand-written).
DROP INDEX "users_name_key";
CREATE UNIQUE INDEX "users_name_key" ON "users"("name") WHERE "jwt_subject" IS NULL;
CREATE UNIQUE INDEX "users_jwt_issuer_jwt_subject_key" ON "users"("jwt_issuer", "jwt_subject");

-- Rows without an API key were created by the old JWT path (create-user always
-- makes a key and keys are never deleted on their own): they become JWT rows
-- whose issuer is unknown (NULL) until the first token with that subject adopts
-- them, so their sessions stay theirs. Their is_admin/permissions came from
-- claims and are cleared. Rows with keys are API-key users; what a token wrote
-- into them cannot be told apart from what an administrator set.
UPDATE "users" SET "jwt_subject" = "name", "is_admin" = false, "permissions" = ARRAY[]::TEXT[]
 WHERE NOT EXISTS (SELECT 1 FROM "api_keys" WHERE "api_keys"."user_id" = "users"."id");
