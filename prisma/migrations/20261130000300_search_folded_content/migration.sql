-- Session search matches display history case-insensitively. ILIKE folds
-- every row it looks at with lower() (under a UTF-8 ctype, ~1.4 µs for a
-- 60-byte row, six times the LIKE match itself), so every search used to pay
-- that per candidate row. The folded text is kept by the database instead (a
-- stored generated column) and search runs `content_folded LIKE lower(pattern)`:
-- the same rows as `content ILIKE pattern`, which PostgreSQL evaluates as
-- lower(content) LIKE lower(pattern) under the same collation.
-- src/search/service.ts matches on it; src/db/migrate.ts (ensureSearchIndexes)
-- puts the trigram GIN indexes on it when pg_trgm is installed; schema.prisma
-- declares it Unsupported("text") @default(dbgenerated()) so the client never
-- reads or writes it.
ALTER TABLE "session_messages" ADD COLUMN "content_folded" TEXT NOT NULL
    GENERATED ALWAYS AS (lower("content")) STORED;

ALTER TABLE "session_messages_archive" ADD COLUMN "content_folded" TEXT NOT NULL
    GENERATED ALWAYS AS (lower("content")) STORED;
