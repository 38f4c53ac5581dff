/**
 * The hand-written migrations: (a) the runner is idempotent, safe to run
 * concurrently, records what Prisma records and refuses edited history;
 * (b) the database they build is exactly what prisma/schema.prisma (the model
 * of record) describes: tables, column types and nullability, primary keys,
 * unique indexes, @@index (columns in order, names), foreign keys.
 *
 * schema.prisma is read through the Pothos-generated datamodel (kind, type,
 * isRequired, isList; `npm run generate`) plus a small parser for what that
 * datamodel leaves out (@@map, @map, @db.*, @@index with its type:, @@unique,
 * @@id, @relation, Unsupported("…") fields, @default(dbgenerated())).
 * @prisma/internals (getDMMF) is not a dependency of this repo.
 *
 * Generated columns: Prisma cannot declare GENERATED ALWAYS AS … STORED, so
 * the schema marks such a column `@default(dbgenerated())` (empty: the
 * expression lives in the migration). A column is generated in the database
 * exactly when schema.prisma says so, both ways.
 */
import { createHash } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/client.js';
import { ensureSearchIndexes, MIGRATIONS_DIR, MigrationError, migrate, readMigrations } from '../src/db/migrate.js';
import { getDatamodel } from '../src/generated/pothos-types.js';
import { createTestDatabase, dbKind, serverUrl } from './support/harness.js';
import { needsServer, skipping } from './support/skips.js';

const SCHEMA_PRISMA = fileURLToPath(new URL('../prisma/schema.prisma', import.meta.url));

/**
 * Indexes the migrations create on purpose that schema.prisma cannot express.
 * Each needs its reason; anything else not explained by the model is drift.
 */
const HAND_WRITTEN_INDEXES: Record<string, string> = {
  turns_one_active_per_session:
    'partial unique index (one RUNNING/WAITING_FOR_TOOL turn per session), migration 20261130000100',
  users_name_key: 'partial unique index (API-key user names; a JWT row may repeat one), migration 20261201000100',
};

/** Created at startup by ensureSearchIndexes, outside the migrations. */
const TRIGRAM_INDEXES = [
  ['idx_session_messages_folded_trgm', 'session_messages', 'content_folded'],
  ['idx_session_messages_archive_folded_trgm', 'session_messages_archive', 'content_folded'],
  ['idx_memory_chunks_content_trgm', 'memory_chunks', 'content'],
] as const;

/** Every migration directory on disk, with the sha256 of its file as Prisma computes it. */
async function migrationFiles(dir = MIGRATIONS_DIR) {
  const names = (await readdir(dir, { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const content = await readFile(join(dir, name, 'migration.sql'));
      return { name, checksum: createHash('sha256').update(content).digest('hex') };
    }),
  );
}

interface MigrationRow {
  id: string;
  checksum: string;
  finished_at: Date | null;
  migration_name: string;
  logs: string | null;
  rolled_back_at: Date | null;
  started_at: Date;
  applied_steps_count: number;
}

const migrationRows = (db: Database) =>
  db.raw.query<MigrationRow>('SELECT * FROM "_prisma_migrations" ORDER BY migration_name, started_at');

// ---------------------------------------------------------------------------
// (a) the runner
// ---------------------------------------------------------------------------

// Each test opens fresh databases and runs every migration: slow on a loaded machine.
describe(`migration runner (${dbKind})`, { timeout: 300_000 }, () => {
  let db: Database;
  let drop: () => Promise<void>;
  let tmp: string | undefined;
  beforeAll(async () => {
    ({ db, drop } = await createTestDatabase({ fresh: true }));
  });
  afterAll(async () => {
    await drop();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('applies every migration once, in order, and nothing the second time', async () => {
    const files = await migrationFiles();
    expect(files.length).toBeGreaterThan(0);
    expect((await readMigrations()).map((m) => m.name)).toEqual(files.map((f) => f.name));

    expect(await migrate(db)).toEqual(files.map((f) => f.name));
    expect(await migrate(db)).toEqual([]);
    expect(await migrate(db)).toEqual([]);
    expect((await migrationRows(db)).map((r) => r.migration_name)).toEqual(files.map((f) => f.name));
  });

  it("records Prisma's _prisma_migrations columns, sha256 checksums of the files and finished_at", async () => {
    const columns = await db.raw.query<{
      column_name: string;
      data_type: string;
      is_nullable: string;
      len: number | null;
    }>(
      `SELECT column_name, data_type, is_nullable, character_maximum_length AS len
         FROM information_schema.columns WHERE table_schema = 'public' AND table_name = '_prisma_migrations'
        ORDER BY ordinal_position`,
    );
    expect(columns).toEqual([
      { column_name: 'id', data_type: 'character varying', is_nullable: 'NO', len: 36 },
      { column_name: 'checksum', data_type: 'character varying', is_nullable: 'NO', len: 64 },
      { column_name: 'finished_at', data_type: 'timestamp with time zone', is_nullable: 'YES', len: null },
      { column_name: 'migration_name', data_type: 'character varying', is_nullable: 'NO', len: 255 },
      { column_name: 'logs', data_type: 'text', is_nullable: 'YES', len: null },
      { column_name: 'rolled_back_at', data_type: 'timestamp with time zone', is_nullable: 'YES', len: null },
      { column_name: 'started_at', data_type: 'timestamp with time zone', is_nullable: 'NO', len: null },
      { column_name: 'applied_steps_count', data_type: 'integer', is_nullable: 'NO', len: null },
    ]);

    const files = await migrationFiles();
    const rows = await migrationRows(db);
    expect(rows).toHaveLength(files.length);
    for (const file of files) {
      const row = rows.find((r) => r.migration_name === file.name);
      expect(row, file.name).toBeDefined();
      expect(row!.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(row!.checksum, `${file.name} checksum`).toBe(file.checksum);
      expect(row!.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(row!.finished_at).toBeInstanceOf(Date);
      expect(row!.finished_at!.getTime()).toBeGreaterThanOrEqual(row!.started_at.getTime());
      expect(row!.rolled_back_at).toBeNull();
      expect(row!.applied_steps_count).toBe(1);
    }
  });

  it('refuses a migration file modified after it was applied, and changes nothing', async () => {
    tmp = await mkdtemp(join(tmpdir(), 'migrations-'));
    await cp(MIGRATIONS_DIR, tmp, { recursive: true });
    const [first] = await migrationFiles(tmp);
    // The untouched copy is the same history: nothing to do.
    expect(await migrate(db, tmp)).toEqual([]);

    const file = join(tmp, first.name, 'migration.sql');
    await writeFile(file, `${await readFile(file, 'utf8')}\n-- edited after the fact\n`);
    const before = await migrationRows(db);
    const error = await migrate(db, tmp).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as Error).message).toBe(`Migration ${first.name} was modified after it was applied`);
    expect(await migrationRows(db)).toEqual(before);
    // The real directory is still accepted afterwards.
    expect(await migrate(db)).toEqual([]);
  });

  it('applies a migration added to the directory, once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'migrations-'));
    try {
      await cp(MIGRATIONS_DIR, dir, { recursive: true });
      const { db: fresh, drop: dropFresh } = await createTestDatabase({ fresh: true });
      try {
        const names = (await migrationFiles()).map((f) => f.name);
        expect(await migrate(fresh, dir)).toEqual(names);
        const extra = '99991231000000_extra';
        await cp(join(MIGRATIONS_DIR, names[0]), join(dir, extra), { recursive: true });
        await writeFile(join(dir, extra, 'migration.sql'), 'CREATE TABLE "runner_probe" ("id" INTEGER PRIMARY KEY);\n');
        expect(await migrate(fresh, dir)).toEqual([extra]);
        expect(await migrate(fresh, dir)).toEqual([]);
        expect((await migrationRows(fresh)).map((r) => r.migration_name)).toEqual([...names, extra]);
      } finally {
        await dropFresh();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('lets concurrent migrate() calls both succeed, each migration recorded once', async () => {
    const { db: first, drop: dropFirst } = await createTestDatabase({ fresh: true });
    let second: Database | undefined;
    try {
      if (serverUrl) {
        // Two handles (two pools) on the same server database: the advisory lock serializes them.
        const [{ name }] = await first.raw.query<{ name: string }>('SELECT current_database() AS name');
        const url = new URL(serverUrl);
        url.pathname = `/${name}`;
        second = await openDatabase({ url: url.toString(), poolSize: 2 });
      }
      const results = await Promise.all([migrate(first), migrate(second ?? first)]);
      const names = (await migrationFiles()).map((f) => f.name);
      // One call did the work, the other found it done (or they split it), never twice.
      expect([...results[0], ...results[1]].sort()).toEqual(names);
      const rows = await migrationRows(first);
      expect(rows.map((r) => r.migration_name)).toEqual(names);
      expect(rows.every((r) => r.finished_at !== null && r.rolled_back_at === null)).toBe(true);
      expect(await migrate(second ?? first)).toEqual([]);
    } finally {
      await second?.close();
      await dropFirst();
    }
  });
});

// ---------------------------------------------------------------------------
// (b) migrations agree with schema.prisma
// ---------------------------------------------------------------------------

interface PslField {
  name: string;
  type: string;
  optional: boolean;
  list: boolean;
  column: string;
  native?: { name: string; args: string[] };
  /** The database type of an `Unsupported("…")` field. */
  unsupported?: string;
  /** `@default(dbgenerated())` with no expression: a GENERATED ALWAYS … STORED column. */
  generated: boolean;
  id?: { map?: string };
  unique?: { map?: string };
  relation?: { fields: string[]; references: string[]; onDelete?: string; onUpdate?: string; map?: string };
}

interface PslKey {
  fields: string[];
  map?: string;
  /** @@index(type: …): the access method, lower-cased as pg_am names it (default btree). */
  method?: string;
}

interface PslModel {
  name: string;
  table: string;
  fields: PslField[];
  id?: PslKey;
  uniques: PslKey[];
  indexes: PslKey[];
}

const stripSort = (f: string) => f.replace(/\(.*\)$/, '').trim();
const listOf = (s: string | undefined) => (s ? s.split(',').map(stripSort).filter(Boolean) : []);
const mapArg = (s: string) => /\bmap:\s*"([^"]+)"/.exec(s)?.[1];

/** Just enough of the Prisma schema language for this repo's schema. */
function parseSchemaPrisma(source: string): PslModel[] {
  const models: PslModel[] = [];
  for (const block of source.matchAll(/^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm)) {
    const model: PslModel = { name: block[1], table: block[1], fields: [], uniques: [], indexes: [] };
    for (const raw of block[2].split('\n')) {
      const line = raw.trim();
      if (!line || line.startsWith('//')) continue;
      const attr = /^@@(\w+)\((.*)\)$/.exec(line);
      if (attr) {
        const [, kind, args] = attr;
        const key = {
          fields: listOf(/\[([^\]]*)\]/.exec(args)?.[1]),
          map: mapArg(args),
          method: /\btype:\s*(\w+)/.exec(args)?.[1]?.toLowerCase(),
        };
        if (kind === 'map') model.table = /"([^"]+)"/.exec(args)![1];
        else if (kind === 'id') model.id = key;
        else if (kind === 'unique') model.uniques.push(key);
        else if (kind === 'index') model.indexes.push(key);
        else throw new Error(`schema.prisma: unsupported block attribute @@${kind} in model ${model.name}`);
        continue;
      }
      const field = /^(\w+)\s+(\w+)(?:\("([^"]+)"\))?(\[\])?(\?)?(?:\s+(.*))?$/.exec(line);
      if (!field) throw new Error(`schema.prisma: cannot parse line in model ${model.name}: ${line}`);
      const [, name, type, unsupported, list, optional, attrs = ''] = field;
      if (unsupported !== undefined && type !== 'Unsupported')
        throw new Error(`schema.prisma: unexpected type ${type}("${unsupported}") in model ${model.name}`);
      const native = /@db\.(\w+)(?:\(([^)]*)\))?/.exec(attrs);
      const id = /(?<!@)@id\b(\(([^)]*)\))?/.exec(attrs);
      const unique = /(?<!@)@unique\b(\(([^)]*)\))?/.exec(attrs);
      const relation = /@relation\(([^)]*)\)/.exec(attrs);
      model.fields.push({
        name,
        type,
        list: Boolean(list),
        optional: Boolean(optional),
        column: /@map\("([^"]+)"\)/.exec(attrs)?.[1] ?? name,
        native: native ? { name: native[1], args: listOf(native[2]) } : undefined,
        unsupported,
        generated: /@default\(\s*dbgenerated\(\s*\)\s*\)/.test(attrs),
        id: id ? { map: id[2] ? mapArg(id[2]) : undefined } : undefined,
        unique: unique ? { map: unique[2] ? mapArg(unique[2]) : undefined } : undefined,
        relation:
          relation && /fields:/.test(relation[1])
            ? {
                fields: listOf(/fields:\s*\[([^\]]*)\]/.exec(relation[1])?.[1]),
                references: listOf(/references:\s*\[([^\]]*)\]/.exec(relation[1])?.[1]),
                onDelete: /onDelete:\s*(\w+)/.exec(relation[1])?.[1],
                onUpdate: /onUpdate:\s*(\w+)/.exec(relation[1])?.[1],
                map: mapArg(relation[1]),
              }
            : undefined,
      });
    }
    models.push(model);
  }
  return models;
}

/** The SQL type Prisma's postgresql connector gives a scalar, as `typeLabel` prints it. */
function expectedType(field: PslField): string {
  const native = field.native?.name;
  const args = field.native?.args ?? [];
  let base: string;
  switch (field.type) {
    case 'String':
      base = native === 'Uuid' ? 'uuid' : native === 'VarChar' ? `character varying(${args[0]})` : 'text';
      break;
    case 'Int':
      base = native === 'SmallInt' ? 'smallint' : 'integer';
      break;
    case 'BigInt':
      base = 'bigint';
      break;
    case 'Float':
      base = native === 'Real' ? 'real' : 'double precision';
      break;
    case 'Decimal':
      base = 'numeric';
      break;
    case 'Boolean':
      base = 'boolean';
      break;
    case 'DateTime':
      base =
        native === 'Timestamptz'
          ? `timestamp with time zone(${args[0] ?? 6})`
          : native === 'Date'
            ? 'date'
            : `timestamp without time zone(${native === 'Timestamp' ? (args[0] ?? 6) : 3})`;
      break;
    case 'Json':
      base = native === 'Json' ? 'json' : 'jsonb';
      break;
    case 'Bytes':
      base = 'bytea';
      break;
    case 'Unsupported':
      base = field.unsupported!;
      break;
    default:
      throw new Error(`no SQL type mapping for ${field.type} (${field.name}): extend expectedType()`);
  }
  return field.list ? `${base}[]` : base;
}

const UDT_LABELS: Record<string, string> = {
  uuid: 'uuid',
  text: 'text',
  int2: 'smallint',
  int4: 'integer',
  int8: 'bigint',
  float4: 'real',
  float8: 'double precision',
  bool: 'boolean',
  jsonb: 'jsonb',
  json: 'json',
  numeric: 'numeric',
  bytea: 'bytea',
  date: 'date',
  timestamptz: 'timestamp with time zone',
  timestamp: 'timestamp without time zone',
  varchar: 'character varying',
};

interface ColumnRow {
  table_name: string;
  column_name: string;
  data_type: string;
  udt_name: string;
  is_nullable: 'YES' | 'NO';
  is_generated: 'ALWAYS' | 'NEVER';
  datetime_precision: number | null;
  character_maximum_length: number | null;
}

function typeLabel(c: ColumnRow): string {
  if (c.data_type === 'ARRAY') return `${UDT_LABELS[c.udt_name.slice(1)] ?? c.udt_name}[]`;
  if (c.data_type.startsWith('timestamp')) return `${c.data_type}(${c.datetime_precision})`;
  if (c.data_type === 'character varying' && c.character_maximum_length)
    return `${c.data_type}(${c.character_maximum_length})`;
  return c.data_type;
}

const ON_ACTION: Record<string, string> = { Cascade: 'c', Restrict: 'r', NoAction: 'a', SetNull: 'n', SetDefault: 'd' };

interface IndexRow {
  name: string;
  table: string;
  unique: boolean;
  primary: boolean;
  partial: boolean;
  method: string;
  columns: string[] | null;
  def: string;
}

interface ConstraintRow {
  name: string;
  type: 'p' | 'u' | 'f';
  table: string;
  columns: string[];
  ref_table: string | null;
  ref_columns: string[] | null;
  on_delete: string;
  on_update: string;
}

async function catalog(db: Database) {
  const tables = (
    await db.raw.query<{ table_name: string }>(
      'SELECT table_name FROM information_schema.tables WHERE table_schema ' +
        `= 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
    )
  ).map((r) => r.table_name);
  const columns = await db.raw.query<ColumnRow>(
    `SELECT table_name, column_name, data_type, udt_name, is_nullable, is_generated, datetime_precision,
            character_maximum_length
       FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`,
  );
  const indexes = await db.raw.query<IndexRow>(`
    SELECT i.relname::text AS name, t.relname::text AS "table", ix.indisunique AS "unique",
           ix.indisprimary AS "primary",
           (ix.indpred IS NOT NULL) AS partial, am.amname::text AS method, pg_get_indexdef(ix.indexrelid) AS def,
           (SELECT array_agg(a.attname::text ORDER BY k.ord)
              FROM unnest(ix.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
              JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum) AS columns
      FROM pg_index ix
      JOIN pg_class i ON i.oid = ix.indexrelid
      JOIN pg_class t ON t.oid = ix.indrelid
      JOIN pg_namespace n ON n.oid = t.relnamespace
      JOIN pg_am am ON am.oid = i.relam
     WHERE n.nspname = 'public'
     ORDER BY 2, 1`);
  const constraints = await db.raw.query<ConstraintRow>(`
    SELECT c.conname::text AS name, c.contype::text AS type, t.relname::text AS "table",
           (SELECT array_agg(a.attname::text ORDER BY k.ord)
              FROM unnest(c.conkey) WITH ORDINALITY AS k(attnum, ord)
              JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum) AS columns,
           ft.relname::text AS ref_table,
           (SELECT array_agg(a.attname::text ORDER BY k.ord)
              FROM unnest(c.confkey) WITH ORDINALITY AS k(attnum, ord)
              JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum) AS ref_columns,
           c.confdeltype::text AS on_delete, c.confupdtype::text AS on_update
      FROM pg_constraint c
      JOIN pg_class t ON t.oid = c.conrelid
      JOIN pg_namespace n ON n.oid = t.relnamespace
      LEFT JOIN pg_class ft ON ft.oid = c.confrelid
     WHERE n.nspname = 'public' AND c.contype IN ('p', 'u', 'f')
     ORDER BY 3, 1`);
  return { tables, columns, indexes, constraints };
}

/** The model of record: generated datamodel joined with the parsed attributes. */
async function loadModels() {
  const parsed = parseSchemaPrisma(await readFile(SCHEMA_PRISMA, 'utf8'));
  const generated = getDatamodel().datamodel.models as unknown as Record<
    string,
    { fields: { name: string; kind: string; type: string; isRequired: boolean; isList: boolean }[] }
  >;
  return { parsed, generated };
}

type Drift = Record<
  'tables' | 'columns' | 'primaryKeys' | 'uniques' | 'indexes' | 'foreignKeys' | 'extraIndexes',
  string[]
>;

/** Every disagreement between schema.prisma and the database, and how many things were checked. */
async function schemaDrift(db: Database, models: PslModel[], allowedExtraIndexes: readonly string[]) {
  const cat = await catalog(db);
  const drift: Drift = {
    tables: [],
    columns: [],
    primaryKeys: [],
    uniques: [],
    indexes: [],
    foreignKeys: [],
    extraIndexes: [],
  };
  const checked = { tables: 0, columns: 0, primaryKeys: 0, uniques: 0, indexes: 0, foreignKeys: 0 };
  const explainedIndexes = new Set<string>();
  const byName = new Map(models.map((m) => [m.name, m]));
  const scalars = (m: PslModel) => m.fields.filter((f) => !byName.has(f.type));
  const columnsOf = (m: PslModel, names: string[]) =>
    names.map((n) => {
      const f = m.fields.find((x) => x.name === n);
      if (!f) throw new Error(`${m.name}: no field ${n}`);
      return f.column;
    });
  const sameList = (a: string[] | null, b: string[]) => JSON.stringify(a ?? []) === JSON.stringify(b);

  const expectedTables = new Set([...models.map((m) => m.table), '_prisma_migrations']);
  for (const t of cat.tables) if (!expectedTables.has(t)) drift.tables.push(`extra table ${t}`);

  for (const model of models) {
    checked.tables++;
    if (!cat.tables.includes(model.table)) {
      drift.tables.push(`${model.name}: table ${model.table} missing`);
      continue;
    }
    // Columns: type and nullability, nothing missing, nothing extra.
    const actual = cat.columns.filter((c) => c.table_name === model.table);
    const fields = scalars(model);
    for (const field of fields) {
      checked.columns++;
      const col = actual.find((c) => c.column_name === field.column);
      if (!col) {
        drift.columns.push(`${model.table}.${field.column} (${model.name}.${field.name}) missing`);
        continue;
      }
      const want = expectedType(field);
      if (typeLabel(col) !== want)
        drift.columns.push(`${model.table}.${field.column}: ${typeLabel(col)}, schema.prisma says ${want}`);
      // Prisma maps required scalars to NOT NULL; scalar lists are nullable columns.
      const nullable = field.optional || field.list;
      if ((col.is_nullable === 'YES') !== nullable)
        drift.columns.push(
          `${model.table}.${field.column}: ${col.is_nullable === 'YES' ? 'NULL' : 'NOT NULL'}, ` +
            `schema.prisma says ${nullable ? 'NULL' : 'NOT NULL'}`,
        );
      if ((col.is_generated === 'ALWAYS') !== field.generated)
        drift.columns.push(
          `${model.table}.${field.column}: ${col.is_generated === 'ALWAYS' ? 'generated' : 'not generated'}, ` +
            `schema.prisma says ${field.generated ? 'generated (@default(dbgenerated()))' : 'not generated'}`,
        );
    }
    for (const col of actual)
      if (!fields.some((f) => f.column === col.column_name))
        drift.columns.push(`${model.table}.${col.column_name}: column not in schema.prisma`);

    // Primary key.
    const idField = model.fields.find((f) => f.id);
    const id = model.id ?? (idField ? { fields: [idField.name], map: idField.id!.map } : undefined);
    const pk = cat.constraints.find((c) => c.table === model.table && c.type === 'p');
    if (id) {
      checked.primaryKeys++;
      const cols = columnsOf(model, id.fields);
      const name = id.map ?? `${model.table}_pkey`;
      if (!pk) drift.primaryKeys.push(`${model.table}: no primary key, schema.prisma says (${cols})`);
      else {
        if (!sameList(pk.columns, cols))
          drift.primaryKeys.push(`${model.table}: primary key (${pk.columns}), schema.prisma says (${cols})`);
        if (pk.name !== name) drift.primaryKeys.push(`${model.table}: primary key named ${pk.name}, expected ${name}`);
        explainedIndexes.add(pk.name);
      }
    } else if (pk) drift.primaryKeys.push(`${model.table}: primary key ${pk.name} not in schema.prisma`);

    // Unique: Prisma creates unique indexes named <table>_<cols>_key.
    const uniques = [
      ...model.fields.filter((f) => f.unique).map((f) => ({ fields: [f.name], map: f.unique!.map })),
      ...model.uniques,
    ];
    for (const u of uniques) {
      checked.uniques++;
      const cols = columnsOf(model, u.fields);
      const name = u.map ?? `${model.table}_${cols.join('_')}_key`;
      const index = cat.indexes.find((i) => i.name === name);
      if (!index) drift.uniques.push(`${model.table}: unique index ${name} (${cols}) missing`);
      else {
        if (index.table !== model.table || !index.unique || index.partial || !sameList(index.columns, cols))
          drift.uniques.push(`${name}: ${index.def}, schema.prisma says UNIQUE ${model.table} (${cols})`);
        explainedIndexes.add(name);
      }
    }

    // @@index: same columns in the same order, the access method
    // (type:, default btree); the map: name, or Prisma's default name.
    for (const ix of model.indexes) {
      checked.indexes++;
      const cols = columnsOf(model, ix.fields);
      const name = ix.map ?? `${model.table}_${cols.join('_')}_idx`;
      const index = cat.indexes.find((i) => i.name === name);
      if (!index) {
        const same = cat.indexes.find((i) => i.table === model.table && sameList(i.columns, cols));
        drift.indexes.push(`${model.table}: index ${name} (${cols}) missing${same ? ` (found as ${same.name})` : ''}`);
      } else {
        const method = ix.method ?? 'btree';
        if (
          index.table !== model.table ||
          index.unique ||
          index.partial ||
          index.method !== method ||
          !sameList(index.columns, cols)
        )
          drift.indexes.push(`${name}: ${index.def}, schema.prisma says ${method} ${model.table} (${cols})`);
        explainedIndexes.add(name);
      }
    }

    // Foreign keys from @relation(fields:, references:, onDelete:, onUpdate:).
    const relations = model.fields.filter((f) => f.relation);
    const fks = cat.constraints.filter((c) => c.table === model.table && c.type === 'f');
    for (const field of relations) {
      checked.foreignKeys++;
      const rel = field.relation!;
      const target = byName.get(field.type)!;
      const cols = columnsOf(model, rel.fields);
      const refs = columnsOf(target, rel.references);
      const name = rel.map ?? `${model.table}_${cols.join('_')}_fkey`;
      const fk = fks.find((c) => c.name === name);
      if (!fk) {
        drift.foreignKeys.push(`${model.table}: foreign key ${name} (${cols}) → ${target.table} (${refs}) missing`);
        continue;
      }
      const onDelete = ON_ACTION[rel.onDelete ?? (field.optional ? 'SetNull' : 'Restrict')];
      const onUpdate = ON_ACTION[rel.onUpdate ?? 'Cascade'];
      if (!sameList(fk.columns, cols) || fk.ref_table !== target.table || !sameList(fk.ref_columns, refs))
        drift.foreignKeys.push(
          `${name}: (${fk.columns}) → ${fk.ref_table} (${fk.ref_columns}), ` +
            `schema.prisma says (${cols}) → ${target.table} (${refs})`,
        );
      if (fk.on_delete !== onDelete)
        drift.foreignKeys.push(`${name}: ON DELETE ${fk.on_delete}, schema.prisma says ${onDelete}`);
      if (fk.on_update !== onUpdate)
        drift.foreignKeys.push(`${name}: ON UPDATE ${fk.on_update}, schema.prisma says ${onUpdate}`);
    }
    for (const fk of fks)
      if (
        !relations.some(
          (f) =>
            (f.relation!.map ?? `${model.table}_${columnsOf(model, f.relation!.fields).join('_')}_fkey`) === fk.name,
        )
      )
        drift.foreignKeys.push(`${fk.name}: foreign key not in schema.prisma`);
  }

  for (const index of cat.indexes) {
    if (
      index.table === '_prisma_migrations' ||
      explainedIndexes.has(index.name) ||
      allowedExtraIndexes.includes(index.name)
    )
      continue;
    drift.extraIndexes.push(`${index.name}: ${index.def}`);
  }
  return { drift, checked, catalog: cat };
}

describe(`migrations agree with prisma/schema.prisma (${dbKind})`, { timeout: 300_000 }, () => {
  let db: Database;
  let drop: () => Promise<void>;
  let models: PslModel[];
  let result: Awaited<ReturnType<typeof schemaDrift>>;
  beforeAll(async () => {
    ({ db, drop } = await createTestDatabase({ fresh: true }));
    await migrate(db);
    const { parsed } = await loadModels();
    models = parsed;
    result = await schemaDrift(db, models, Object.keys(HAND_WRITTEN_INDEXES));
  });
  afterAll(() => drop());

  it('reads schema.prisma: the parser and the generated datamodel see the same models and fields', async () => {
    const { parsed, generated } = await loadModels();
    expect(parsed.length).toBeGreaterThanOrEqual(10);
    expect(parsed.map((m) => m.name).sort(), 'models (stale src/generated? run `npm run generate`)').toEqual(
      Object.keys(generated).sort(),
    );
    for (const model of parsed) {
      const fromGenerated = generated[model.name].fields.map((f) => ({
        name: f.name,
        type: f.type,
        optional: !f.isRequired,
        list: f.isList,
      }));
      // Prisma leaves Unsupported("…") fields out of the client's datamodel; they are compared with the database below.
      const fromParser = model.fields
        .filter((f) => f.type !== 'Unsupported')
        .map(({ name, type, optional, list }) => ({ name, type, optional, list }));
      expect(fromParser, `${model.name} (stale src/generated? run \`npm run generate\`)`).toEqual(fromGenerated);
      for (const f of model.fields.filter((x) => x.type === 'Unsupported'))
        expect(
          generated[model.name].fields.map((x) => x.name),
          `${model.name}.${f.name}`,
        ).not.toContain(f.name);
    }
    // The parser found the attributes it is there for.
    expect(parsed.filter((m) => m.table !== m.name)).toHaveLength(parsed.length);
    expect(parsed.flatMap((m) => m.indexes).length).toBeGreaterThan(5);
    expect(parsed.flatMap((m) => m.fields).filter((f) => f.native?.name === 'Uuid').length).toBeGreaterThan(10);
    expect(parsed.flatMap((m) => m.fields).filter((f) => f.relation).length).toBeGreaterThan(5);
    const chunks = parsed.find((m) => m.table === 'memory_chunks')!;
    expect(chunks.fields.find((f) => f.column === 'search_vector')).toMatchObject({
      type: 'Unsupported',
      unsupported: 'tsvector',
      generated: true,
    });
    expect(chunks.indexes).toContainEqual({ fields: ['searchVector'], map: undefined, method: 'gin' });
    // Generated columns are Unsupported(…) fields: the client can neither read nor write them.
    const generatedFields = parsed.flatMap((m) => m.fields).filter((f) => f.generated);
    expect(generatedFields.length).toBeGreaterThanOrEqual(1);
    for (const f of generatedFields) expect(f.type, f.name).toBe('Unsupported');
  });

  it('has a table for every model and no other tables besides _prisma_migrations', () => {
    expect(result.checked.tables).toBe(models.length);
    expect(result.drift.tables).toEqual([]);
    expect(result.catalog.tables.sort()).toEqual([...models.map((m) => m.table), '_prisma_migrations'].sort());
  });

  it('has every scalar field as a column of the Prisma type and nullability, and no other columns', () => {
    expect(result.checked.columns).toBeGreaterThan(100);
    expect(result.drift.columns).toEqual([]);
  });

  it('has the primary keys', () => {
    expect(result.checked.primaryKeys).toBe(models.length);
    expect(result.drift.primaryKeys).toEqual([]);
  });

  it('has the unique indexes (@unique, @@unique)', () => {
    expect(result.checked.uniques).toBeGreaterThanOrEqual(6);
    expect(result.drift.uniques).toEqual([]);
  });

  it('has every @@index with its columns in order and its name', () => {
    expect(result.checked.indexes).toBeGreaterThanOrEqual(8);
    expect(result.drift.indexes).toEqual([]);
  });

  it('has the foreign keys with their referential actions', () => {
    expect(result.checked.foreignKeys).toBeGreaterThanOrEqual(8);
    expect(result.drift.foreignKeys).toEqual([]);
  });

  it('has no index that neither schema.prisma nor HAND_WRITTEN_INDEXES explains', () => {
    expect(result.drift.extraIndexes).toEqual([]);
    for (const name of Object.keys(HAND_WRITTEN_INDEXES))
      expect(
        result.catalog.indexes.map((i) => i.name),
        name,
      ).toContain(name);
  });

  it('has the covering index idx_session_messages_counts (session_id, sequence_number, is_display)', () => {
    const index = result.catalog.indexes.find((i) => i.name === 'idx_session_messages_counts');
    expect(index).toMatchObject({
      table: 'session_messages',
      columns: ['session_id', 'sequence_number', 'is_display'],
      unique: false,
      partial: false,
      method: 'btree',
    });
  });

  it('detects drift: a deliberately wrong database does not pass', async () => {
    const { db: wrong, drop: dropWrong } = await createTestDatabase({ fresh: true });
    try {
      await migrate(wrong);
      await wrong.raw.exec(`
        ALTER TABLE "users" ALTER COLUMN "name" DROP NOT NULL;
        ALTER TABLE "profiles" ALTER COLUMN "context_window" TYPE BIGINT;
        ALTER TABLE "sessions" ADD COLUMN "stray" TEXT;
        DROP INDEX "idx_session_messages_counts";
        CREATE INDEX "idx_session_messages_counts" ON "session_messages"("session_id", "is_display", "sequence_number");
        DROP INDEX "turns_status_idx";
        DROP INDEX "api_keys_key_hash_key";
        ALTER TABLE "session_imports" DROP CONSTRAINT "session_imports_pkey";
        ALTER TABLE "memory_chunks" DROP CONSTRAINT "memory_chunks_session_id_fkey";
        CREATE TABLE "stray_table" ("id" INTEGER);
        ALTER TABLE "memory_chunks" ALTER COLUMN "search_vector" DROP EXPRESSION;
        DROP INDEX "memory_chunks_search_vector_idx";
        CREATE INDEX "memory_chunks_search_vector_idx" ON "memory_chunks" USING btree ("search_vector");
        CREATE INDEX "stray_idx" ON "turns"("error");
      `);
      const { drift } = await schemaDrift(wrong, models, Object.keys(HAND_WRITTEN_INDEXES));
      expect(drift.columns).toEqual(
        expect.arrayContaining([
          'users.name: NULL, schema.prisma says NOT NULL',
          'profiles.context_window: bigint, schema.prisma says integer',
          'sessions.stray: column not in schema.prisma',
          'memory_chunks.search_vector: not generated, schema.prisma says generated (@default(dbgenerated()))',
        ]),
      );
      const btreeSearchIndex =
        /^memory_chunks_search_vector_idx: .*USING btree.*, schema.prisma says gin memory_chunks \(search_vector\)$/;
      expect(drift.indexes).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^idx_session_messages_counts: /),
          'turns: index turns_status_idx (status) missing',
          expect.stringMatching(btreeSearchIndex),
        ]),
      );
      expect(drift.uniques).toEqual(['api_keys: unique index api_keys_key_hash_key (key_hash) missing']);
      expect(drift.primaryKeys).toEqual(['session_imports: no primary key, schema.prisma says (user_id,fingerprint)']);
      expect(drift.foreignKeys).toEqual([
        expect.stringMatching(/^memory_chunks: foreign key memory_chunks_session_id_fkey .* missing$/),
      ]);
      expect(drift.tables).toEqual(['extra table stray_table']);
      expect(drift.extraIndexes).toEqual([expect.stringMatching(/^stray_idx: /)]);
    } finally {
      await dropWrong();
    }
  });

  it(
    'ensureSearchIndexes creates the trigram GIN indexes ' +
      '(always on PGlite; on a server when pg_trgm is installed)',
    async () => {
      const logs: string[] = [];
      const created = await ensureSearchIndexes(db, (m) => logs.push(m));
      const [{ n }] = await db.raw.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_extension WHERE extname = 'pg_trgm'`,
      );
      if (db.kind === 'pglite') expect(created).toBe(true);
      expect(created).toBe(n === 1);
      expect(await ensureSearchIndexes(db)).toBe(created); // idempotent
      const { indexes } = await catalog(db);
      for (const [name, table, column] of TRIGRAM_INDEXES) {
        const index = indexes.find((i) => i.name === name);
        if (!created) {
          expect(index, name).toBeUndefined();
          continue;
        }
        expect(index, name).toMatchObject({ table, method: 'gin', columns: [column], unique: false });
        expect(index!.def).toContain('gin_trgm_ops');
      }
      if (!created) expect(logs.join('\n')).toMatch(/pg_trgm is not installed/);
    },
  );

  it.skipIf(skipping('a server without pg_trgm', needsServer()))(
    'ensureSearchIndexes on a server without pg_trgm: no trigram indexes, a hint, no error',
    async () => {
      const { db: bare, drop: dropBare } = await createTestDatabase({ fresh: true, trigram: false });
      try {
        await migrate(bare);
        const [{ n }] = await bare.raw.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_extension WHERE extname = 'pg_trgm'`,
        );
        const logs: string[] = [];
        const created = await ensureSearchIndexes(bare, (m) => logs.push(m));
        expect(created).toBe(n === 1);
        if (n === 0) {
          expect(logs).toHaveLength(1);
          const { indexes } = await catalog(bare);
          // No trigram index; the full-text GIN index is the migrations' own (built-in tsvector, no extension).
          expect(indexes.filter((i) => i.method === 'gin').map((i) => i.name)).toEqual([
            'memory_chunks_search_vector_idx',
          ]);
          expect(indexes.filter((i) => i.def.includes('gin_trgm_ops'))).toEqual([]);
        }
      } finally {
        await dropBare();
      }
    },
  );
});
