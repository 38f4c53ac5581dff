-- Initial schema. Hand-written in Prisma's layout; applied by src/db/migrate.ts.

CREATE TABLE "users" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "is_admin" BOOLEAN NOT NULL DEFAULT false,
    "permissions" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "users_name_key" ON "users"("name");

CREATE TABLE "api_keys" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "key_hash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys"("key_hash");
CREATE INDEX "api_keys_user_id_idx" ON "api_keys"("user_id");

CREATE TABLE "profiles" (
    "id" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "provider" TEXT NOT NULL DEFAULT 'ollama',
    "model" TEXT NOT NULL,
    "system_prompt" TEXT NOT NULL DEFAULT '',
    "context_window" INTEGER NOT NULL,
    "compression_keep_recent" INTEGER NOT NULL,
    "compression_max_tokens" INTEGER NOT NULL,
    "compression_prompt" TEXT,
    "vision" BOOLEAN NOT NULL DEFAULT false,
    "planning" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "profiles_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "profiles_key_key" ON "profiles"("key");

CREATE TABLE "sessions" (
    "id" UUID NOT NULL,
    "profile_id" UUID NOT NULL,
    "user_id" TEXT,
    "name" TEXT,
    "title_source" TEXT NOT NULL DEFAULT 'DEFAULT',
    "pinned" BOOLEAN NOT NULL DEFAULT false,
    "context_token_count" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_active" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "planning_logs" JSONB NOT NULL DEFAULT '[]',
    "usage" JSONB NOT NULL DEFAULT '{}',
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "checkpoint" JSONB,
    "last_rewind_report" TEXT,
    "next_sequence" INTEGER NOT NULL DEFAULT 0,
    "display_count" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "sessions_user_id_pinned_last_active_idx" ON "sessions"("user_id", "pinned", "last_active");
CREATE INDEX "sessions_last_active_idx" ON "sessions"("last_active");

CREATE TABLE "session_messages" (
    "session_id" UUID NOT NULL,
    "sequence_number" INTEGER NOT NULL,
    "display_index" INTEGER,
    "role" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "thinking" TEXT,
    "is_context" BOOLEAN NOT NULL DEFAULT true,
    "is_display" BOOLEAN NOT NULL DEFAULT true,
    "is_plan" BOOLEAN NOT NULL DEFAULT false,
    "is_compression" BOOLEAN NOT NULL DEFAULT false,
    "is_summary" BOOLEAN NOT NULL DEFAULT false,
    "is_compression_critical" BOOLEAN NOT NULL DEFAULT false,
    "is_recall" BOOLEAN NOT NULL DEFAULT false,
    "is_agent_note" BOOLEAN NOT NULL DEFAULT false,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "elapsed_seconds" DOUBLE PRECISION,
    "tool_call_count" INTEGER,
    "token_count" INTEGER,
    "tool_calls" JSONB NOT NULL DEFAULT '[]',
    "tool_call_id" TEXT,
    "name" TEXT,
    "files" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "images" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "session_messages_pkey" PRIMARY KEY ("session_id","sequence_number")
);
-- The seed's covering index: display counts and position numbering as index-only scans.
CREATE INDEX "idx_session_messages_counts" ON "session_messages"("session_id", "sequence_number", "is_display");
CREATE INDEX "idx_session_messages_display" ON "session_messages"("session_id", "display_index");

CREATE TABLE "session_messages_archive" (
    "session_id" UUID NOT NULL,
    "sequence_number" INTEGER NOT NULL,
    "display_index" INTEGER,
    "role" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "thinking" TEXT,
    "is_context" BOOLEAN NOT NULL DEFAULT true,
    "is_display" BOOLEAN NOT NULL DEFAULT true,
    "is_plan" BOOLEAN NOT NULL DEFAULT false,
    "is_compression" BOOLEAN NOT NULL DEFAULT false,
    "is_summary" BOOLEAN NOT NULL DEFAULT false,
    "is_compression_critical" BOOLEAN NOT NULL DEFAULT false,
    "is_recall" BOOLEAN NOT NULL DEFAULT false,
    "is_agent_note" BOOLEAN NOT NULL DEFAULT false,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "elapsed_seconds" DOUBLE PRECISION,
    "tool_call_count" INTEGER,
    "token_count" INTEGER,
    "tool_calls" JSONB NOT NULL DEFAULT '[]',
    "tool_call_id" TEXT,
    "name" TEXT,
    "files" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "images" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "archived_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "session_messages_archive_pkey" PRIMARY KEY ("session_id","sequence_number")
);
CREATE INDEX "idx_session_messages_archive_counts" ON "session_messages_archive"("session_id", "sequence_number", "is_display");
CREATE INDEX "idx_session_messages_archive_display" ON "session_messages_archive"("session_id", "display_index");

CREATE TABLE "turns" (
    "id" UUID NOT NULL,
    "session_id" UUID NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'RUNNING',
    "idempotency_key" TEXT,
    "user_sequence" INTEGER,
    "partial_text" TEXT NOT NULL DEFAULT '',
    "partial_thinking" TEXT NOT NULL DEFAULT '',
    "pending_tool_calls" JSONB NOT NULL DEFAULT '[]',
    "usage" JSONB NOT NULL DEFAULT '{}',
    "error" TEXT,
    "owner_process" TEXT,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ended_at" TIMESTAMPTZ(3),
    CONSTRAINT "turns_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "turns_session_id_idempotency_key_key" ON "turns"("session_id", "idempotency_key");
CREATE INDEX "turns_session_id_status_idx" ON "turns"("session_id", "status");
CREATE INDEX "turns_status_idx" ON "turns"("status");

CREATE TABLE "session_shares" (
    "session_id" UUID NOT NULL,
    "token" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "session_shares_pkey" PRIMARY KEY ("session_id")
);
CREATE UNIQUE INDEX "session_shares_token_key" ON "session_shares"("token");

CREATE TABLE "session_branches" (
    "session_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "base_sequence" INTEGER NOT NULL,
    "suffix" JSONB NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "session_branches_pkey" PRIMARY KEY ("session_id","name")
);

CREATE TABLE "memory_chunks" (
    "id" UUID NOT NULL,
    "session_id" UUID NOT NULL,
    "content" TEXT NOT NULL,
    "content_hash" TEXT NOT NULL,
    "breadcrumbs" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "turn_start" INTEGER NOT NULL,
    "turn_end" INTEGER NOT NULL,
    "first_at" TIMESTAMPTZ(3) NOT NULL,
    "last_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "memory_chunks_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "memory_chunks_session_id_content_hash_key" ON "memory_chunks"("session_id", "content_hash");

CREATE TABLE "session_imports" (
    "user_id" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "session_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "session_imports_pkey" PRIMARY KEY ("user_id","fingerprint")
);

ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_profile_id_fkey" FOREIGN KEY ("profile_id") REFERENCES "profiles"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "session_messages" ADD CONSTRAINT "session_messages_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "session_messages_archive" ADD CONSTRAINT "session_messages_archive_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "turns" ADD CONSTRAINT "turns_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "session_shares" ADD CONSTRAINT "session_shares_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "session_branches" ADD CONSTRAINT "session_branches_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "memory_chunks" ADD CONSTRAINT "memory_chunks_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
