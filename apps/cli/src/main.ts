// No Nest, Prisma or Kafka here: the commands that need them load them when they run, so
// `--help`, `admin` and `webhooks` start in a fraction of a second (commands.spec.ts).
import { Command } from 'commander';
import { adminCommand } from './commands/admin.command';
import { dltCommand } from './commands/dlt.command';
import { migrateCommand } from './commands/migrate.command';
import { topicsCommand } from './commands/topics.command';
import { webhooksCommand } from './commands/webhooks.command';

function print(value: unknown, json: boolean): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${String(value)}\n`);
}

const program = new Command('genasset')
  .description('Operator and developer commands for the generative-asset platform')
  .showHelpAfterError();
program.addCommand(adminCommand(print));
program.addCommand(dltCommand(print));
program.addCommand(migrateCommand(print));
program.addCommand(topicsCommand(print));
program.addCommand(webhooksCommand(print));

program.parseAsync(process.argv).catch((error: unknown) => {
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
