-- memorySearch candidate filter: the words of each raw-history chunk as a
-- full-text vector, kept by the database (a stored generated column) and
-- indexed with GIN, so a word or word-prefix lookup is an index probe instead
-- of a trigram scan over every chunk. Punctuation is turned into spaces first
-- so that paths, dotted names and snake_case are indexed word by word
-- ("src/compression/memory.ts" -> src, compression, memory, ts); the 'simple'
-- configuration only lower-cases (no stemming, no stop words).
-- src/compression/memory.ts builds the matching tsquery; schema.prisma
-- declares the column as Unsupported("tsvector") @default(dbgenerated()).
ALTER TABLE "memory_chunks" ADD COLUMN "search_vector" tsvector NOT NULL
    GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, regexp_replace("content", '[[:punct:]]+', ' ', 'g'))) STORED;

CREATE INDEX "memory_chunks_search_vector_idx" ON "memory_chunks" USING GIN ("search_vector");
