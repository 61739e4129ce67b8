import type { FilterCondition } from '@genasset/http';

/** The tagged-template helpers of a service's generated Prisma namespace (`Prisma.sql`, `Prisma.raw`). */
export interface SqlTags<Sql> {
  sql(strings: readonly string[] | TemplateStringsArray, ...values: unknown[]): Sql;
  raw(text: string): Sql;
}

/**
 * One parsed filter condition as a parameterised SQL condition. `columns`
 * maps each filterable attribute to its (trusted) column expression; for
 * `arrays`, = means "contains", != "does not contain", IN "overlaps".
 */
export function filterConditionSql<Sql>(Prisma: SqlTags<Sql>, condition: FilterCondition, columns: Record<string, string>, arrays: readonly string[]): Sql {
  const column = Prisma.raw(columns[condition.attribute]);
  const isArray = arrays.includes(condition.attribute);
  switch (condition.op) {
    case '=':
      return isArray ? Prisma.sql`${column} @> ARRAY[${condition.value}]::text[]` : Prisma.sql`${column} = ${condition.value}`;
    case '!=':
      return isArray ? Prisma.sql`NOT (${column} @> ARRAY[${condition.value}]::text[])` : Prisma.sql`${column} IS DISTINCT FROM ${condition.value}`;
    case 'IN':
      return isArray ? Prisma.sql`${column} && ${condition.values}::text[]` : Prisma.sql`${column} = ANY(${condition.values}::text[])`;
    default:
      return Prisma.sql`${column} ${Prisma.raw(condition.op)} ${condition.value.toISOString()}::timestamptz`;
  }
}

/**
 * The count of a search's matches (`alias` names `table` in `conditions`):
 * exact, or up to `limit` rows (offset mode's estimate: countLimit in
 * @genasset/http), which stops reading once that many matched.
 */
export function matchCountSql<Sql>(Prisma: SqlTags<Sql>, table: string, alias: string, conditions: Sql, limit: number | undefined): Sql {
  const from = Prisma.raw(`${table} ${alias}`);
  return limit === undefined
    ? Prisma.sql`SELECT count(*) AS total FROM ${from} WHERE ${conditions}`
    : Prisma.sql`SELECT count(*) AS total FROM (SELECT 1 FROM ${from} WHERE ${conditions} LIMIT ${limit}) matches`;
}
