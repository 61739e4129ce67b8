import { readFileSync } from 'node:fs';
import { quoteIdent, type DatabaseConnection } from '@genasset/persistence';

interface SchemaWasm {
  get_dmmf(params: string): string;
}

/** Loaded on first use: a 4 MB dev-only package that production images do not ship. */
function schemaWasm(): SchemaWasm {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('@prisma/prisma-schema-wasm') as SchemaWasm;
}

interface DmmfField {
  name: string;
  dbName: string | null;
  kind: 'scalar' | 'object' | 'enum' | 'unsupported';
  type: string;
  isList: boolean;
  isRequired: boolean;
  isId: boolean;
  isUnique: boolean;
  nativeType: [string, string[]] | null;
}
interface DmmfModel {
  name: string;
  dbName: string | null;
  schema: string | null;
  fields: DmmfField[];
  primaryKey: { fields: string[] } | null;
  uniqueFields: string[][];
}

export interface ColumnShape {
  table: string;
  column: string;
  type: string;
  nullable: boolean;
}

const SCALAR_TO_PG: Record<string, string> = {
  String: 'text',
  Int: 'integer',
  BigInt: 'bigint',
  Float: 'double precision',
  Decimal: 'numeric',
  Boolean: 'boolean',
  DateTime: 'timestamp(3) without time zone',
  Json: 'jsonb',
  Bytes: 'bytea',
};

const NATIVE_TO_PG: Record<string, (args: string[]) => string> = {
  Timestamptz: (a) => `timestamp(${a[0] ?? 6}) with time zone`,
  Timestamp: (a) => `timestamp(${a[0] ?? 6}) without time zone`,
  Text: () => 'text',
  VarChar: (a) => (a[0] ? `character varying(${a[0]})` : 'character varying'),
  Uuid: () => 'uuid',
  Integer: () => 'integer',
  SmallInt: () => 'smallint',
  BigInt: () => 'bigint',
  Real: () => 'real',
  DoublePrecision: () => 'double precision',
  JsonB: () => 'jsonb',
  Json: () => 'json',
  Date: () => 'date',
  Inet: () => 'inet',
};

/** Reads a Prisma schema into the tables, columns and unique keys it expects. */
export function expectedShape(prismaSchemaPath: string): { columns: ColumnShape[]; uniques: string[] } {
  const source = readFileSync(prismaSchemaPath, 'utf8');
  const dmmf = JSON.parse(schemaWasm().get_dmmf(JSON.stringify({ prismaSchema: source }))) as {
    datamodel: { models: DmmfModel[] };
  };
  const columns: ColumnShape[] = [];
  const uniques: string[] = [];
  for (const model of dmmf.datamodel.models) {
    const table = model.dbName ?? model.name;
    const columnOf = (field: string) => {
      const f = model.fields.find((x) => x.name === field)!;
      return f.dbName ?? f.name;
    };
    for (const field of model.fields) {
      if (field.kind === 'object') continue;
      let type = field.nativeType ? NATIVE_TO_PG[field.nativeType[0]]?.(field.nativeType[1]) : SCALAR_TO_PG[field.type];
      if (field.kind === 'enum') type = `enum:${field.type}`;
      if (!type) throw new Error(`no PostgreSQL type known for ${model.name}.${field.name}`);
      columns.push({ table, column: field.dbName ?? field.name, type: field.isList ? `${type}[]` : type, nullable: !field.isRequired });
      if (field.isUnique) uniques.push(`${table}(${field.dbName ?? field.name})`);
    }
    const pk = model.primaryKey?.fields ?? model.fields.filter((f) => f.isId).map((f) => f.name);
    if (pk.length) uniques.push(`${table}(${pk.map(columnOf).join(',')})`);
    for (const u of model.uniqueFields) uniques.push(`${table}(${u.map(columnOf).join(',')})`);
  }
  columns.push(...unsupportedColumns(source, dmmf.datamodel.models));
  return { columns: sortColumns(columns), uniques: [...new Set(uniques)].sort() };
}

/**
 * `Unsupported("tsvector")` fields (a generated search column, …): the DMMF leaves them
 * out, so they are read from the schema's text. Always optional in Prisma, so nullable.
 */
function unsupportedColumns(source: string, models: readonly DmmfModel[]): ColumnShape[] {
  const columns: ColumnShape[] = [];
  for (const block of source.matchAll(/^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm)) {
    const model = models.find((m) => m.name === block[1]);
    for (const field of block[2].matchAll(/^\s*(\w+)\s+Unsupported\("([^"]+)"\)(\[\])?\??(.*)$/gm)) {
      const mapped = /@map\("([^"]+)"\)/.exec(field[4]);
      columns.push({ table: model?.dbName ?? block[1], column: mapped?.[1] ?? field[1], type: `${field[2]}${field[3] ?? ''}`, nullable: true });
    }
  }
  return columns;
}

/** Reads what the migrations actually built in `schema` (excluding tables owned by shared libraries). */
export async function actualShape(
  db: DatabaseConnection,
  schema: string,
  ignoreTables: readonly string[] = [],
): Promise<{ columns: ColumnShape[]; uniques: string[] }> {
  quoteIdent(schema);
  const rows = await db.query<{ table: string; column: string; type: string; nullable: boolean; udt: string }>(
    `SELECT c.relname AS table, a.attname AS column,
            format_type(a.atttypid, a.atttypmod) AS type,
            NOT a.attnotnull AS nullable,
            t.typtype AS udt
       FROM pg_attribute a
       JOIN pg_class c ON c.oid = a.attrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_type t ON t.oid = a.atttypid
      WHERE n.nspname = $1 AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped`,
    [schema],
  );
  const skip = new Set(['_migrations', ...ignoreTables]);
  const columns = rows
    .filter((r) => !skip.has(r.table))
    .map((r) => ({
      table: r.table,
      column: r.column,
      type: r.udt === 'e' ? `enum:${r.type.replace(/^"?[^.]*"?\./, '').replace(/"/g, '')}` : r.type,
      nullable: r.nullable,
    }));
  const indexes = await db.query<{ table: string; columns: string }>(
    `SELECT c.relname AS table,
            string_agg(a.attname, ',' ORDER BY k.ord) AS columns
       FROM pg_index i
       JOIN pg_class c ON c.oid = i.indrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
       CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
      WHERE n.nspname = $1 AND i.indisunique AND i.indpred IS NULL
      GROUP BY c.relname, i.indexrelid`,
    [schema],
  );
  const uniques = indexes.filter((r) => !skip.has(r.table)).map((r) => `${r.table}(${r.columns})`);
  return { columns: sortColumns(columns), uniques: [...new Set(uniques)].sort() };
}

function sortColumns(columns: ColumnShape[]): ColumnShape[] {
  return columns.sort((a, b) => `${a.table}.${a.column}`.localeCompare(`${b.table}.${b.column}`));
}
