-- A profile may keep every request to an OpenAI-compatible server to the core chat-completions fields (strict
-- servers refuse the rest with a 400): false leaves out prompt_cache_key from the first request on.
ALTER TABLE "profiles" ADD COLUMN "provider_extensions" BOOLEAN NOT NULL DEFAULT true;
