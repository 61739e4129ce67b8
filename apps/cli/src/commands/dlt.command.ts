import { Command, Option } from 'commander';
import type { ConsoleLogger as NestConsoleLogger } from '@nestjs/common';
import type { DeadLetterEntry } from '@genasset/messaging';

interface ReplayFlags {
  brokers: string;
  topic?: string[];
  type?: string[];
  eventId?: string[];
  consumer?: string;
  since?: string;
  until?: string;
  dryRun?: boolean;
  timeout: string;
  json?: boolean;
}

/**
 * `cli dlt replay`: republishes dead letters to their original topic once the
 * cause is fixed (docs/runbook.md, "Replaying a dead-letter topic").
 */
export function dltCommand(print: (value: unknown, json: boolean) => void): Command {
  const dlt = new Command('dlt').description('Dead-letter topics (<topic>.dlt)');
  dlt
    .command('replay')
    .description(
      'Republish dead-lettered messages to their original topic (key, bytes and headers kept, dead-letter headers removed). ' +
        'Consumers that already applied an event skip it (inbox), so a replay is safe to repeat.',
    )
    .addOption(
      new Option('--brokers <list>', 'comma-separated brokers').env('KAFKA_BROKERS').makeOptionMandatory(),
    )
    .option('--topic <topic...>', 'original topic(s) whose .dlt to read (default: all platform topics)')
    .option('--type <type...>', 'only these event types (x-event-type)')
    .option('--event-id <id...>', 'only these event ids (x-event-id)')
    .option('--consumer <name>', 'only letters dead-lettered by this consumer')
    .option('--since <time>', 'only letters dead-lettered at or after this ISO 8601 time')
    .option('--until <time>', 'only letters dead-lettered before this ISO 8601 time')
    .option('--dry-run', 'list what would be replayed, publish nothing')
    .option('--timeout <ms>', 'longest wait to read the dead-letter topics to their end', '60000')
    .option('--json', 'print JSON')
    .action(async (o: ReplayFlags) => {
      // Loaded here, not at the top: the rest of the CLI starts without Nest and kafkajs.
      await import('reflect-metadata');
      const { ConsoleLogger, Logger } = await import('@nestjs/common');
      const { replayDeadLetters } = await import('@genasset/messaging');
      // Client logs (kafkajs warnings) go to stderr: stdout is the listing, `--json` pipes into jq.
      class StderrLogger extends ConsoleLogger {
        protected override printMessages(...args: Parameters<NestConsoleLogger['printMessages']>): void {
          const [messages, context, logLevel, , errorStack] = args;
          super.printMessages(messages, context, logLevel, 'stderr', errorStack);
        }
      }
      Logger.overrideLogger(new StderrLogger());
      const result = await replayDeadLetters({
        brokers: o.brokers.split(',').map((b) => b.trim()),
        topics: o.topic,
        eventTypes: o.type,
        eventIds: o.eventId,
        consumer: o.consumer,
        since: parseTime('--since', o.since),
        until: parseTime('--until', o.until),
        dryRun: Boolean(o.dryRun),
        timeoutMs: Number(o.timeout),
      });
      if (o.json) {
        print(
          {
            dryRun: Boolean(o.dryRun),
            matched: result.letters.length,
            replayed: result.replayed,
            letters: result.letters,
          },
          true,
        );
        return;
      }
      const lines = result.letters.map(describe);
      lines.push(
        o.dryRun
          ? `dry run: ${result.letters.filter((l) => !l.duplicate).length} message(s) would be replayed`
          : `replayed ${result.replayed} message(s)`,
      );
      print(lines.join('\n'), false);
    });
  return dlt;
}

function parseTime(flag: string, value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new Error(`${flag} must be an ISO 8601 time, got "${value}"`);
  return date;
}

function describe(l: DeadLetterEntry): string {
  const what = `${l.eventType ?? '?'} ${l.eventId ?? '(no event id)'}`;
  const where = `${l.deadLetterTopic}[${l.partition}]@${l.offset}`;
  return `${l.deadLetteredAt}  ${where}  ${what} -> ${l.originalTopic}${l.duplicate ? ' (duplicate, skipped)' : ''}  consumer=${l.consumer ?? '?'}  reason=${l.reason ?? '?'}`;
}
