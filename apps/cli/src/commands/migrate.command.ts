import { Command } from 'commander';

/**
 * `cli migrate [--only <schema,...>]`: applies each owner's SQL migrations to
 * DATABASE_URL (or the embedded database under DATA_DIR). One job per service
 * in production (`--only webhooks`), everything at once in development.
 */
export function migrateCommand(print: (value: unknown, json: boolean) => void): Command {
  return new Command('migrate')
    .description('Apply SQL migrations for the identity schema and every service schema')
    .option('--only <schemas>', 'comma-separated schema names, e.g. identity,webhooks')
    .option('--json', 'print JSON')
    .action(async (o: { only?: string; json?: boolean }) => {
      // Loaded here, not at the top: every other command starts without Nest, Prisma and the services.
      await import('reflect-metadata');
      const { commonEnv, loadConfig } = await import('@genasset/config');
      const { migrate, openConnection } = await import('@genasset/persistence');
      const { ALL_SCHEMAS } = await import('@genasset/service-catalog');
      const config = loadConfig(commonEnv);
      const wanted = o.only?.split(',').map((s) => s.trim());
      const unknown = wanted?.filter((w) => !ALL_SCHEMAS.some((s) => s.schema === w)) ?? [];
      if (unknown.length) throw new Error(`unknown schema(s): ${unknown.join(', ')}; known: ${ALL_SCHEMAS.map((s) => s.schema).join(', ')}`);
      const connection = await openConnection(config, 'genasset-migrate');
      try {
        const report: Record<string, string[]> = {};
        for (const definition of ALL_SCHEMAS.filter((s) => !wanted || wanted.includes(s.schema))) {
          const results = await migrate(connection, definition);
          report[definition.schema] = results.filter((r) => r.applied).map((r) => r.name);
        }
        print(
          o.json
            ? report
            : Object.entries(report)
                .map(([schema, applied]) => `${schema}: ${applied.length ? `applied ${applied.join(', ')}` : 'up to date'}`)
                .join('\n'),
          Boolean(o.json),
        );
      } finally {
        await connection.close();
      }
    });
}
