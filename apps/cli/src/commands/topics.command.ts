import { Command, Option } from 'commander';
import { allTopics, DEFAULT_PARTITIONS } from '@genasset/contracts';
import { provisionTopics } from '@genasset/messaging';

/** `cli topics list|create`: topic provisioning is its own step, never done by services at start. */
export function topicsCommand(print: (value: unknown, json: boolean) => void): Command {
  const topics = new Command('topics').description('Kafka topics of the platform');
  topics
    .command('list')
    .description('Print every topic, dead-letter topics included')
    .option('--json', 'print JSON')
    .action((o: { json?: boolean }) => print(o.json ? allTopics() : allTopics().join('\n'), Boolean(o.json)));
  topics
    .command('create')
    .description('Create missing topics on the brokers (idempotent)')
    .addOption(new Option('--brokers <list>', 'comma-separated brokers').env('KAFKA_BROKERS').makeOptionMandatory())
    .addOption(new Option('--partitions <n>', 'partitions per topic').default(String(DEFAULT_PARTITIONS)))
    .addOption(new Option('--replication <n>', 'replication factor').default('1'))
    .option('--json', 'print JSON')
    .action(async (o: { brokers: string; partitions: string; replication: string; json?: boolean }) => {
      const created = await provisionTopics(o.brokers.split(','), allTopics(), {
        partitions: Number(o.partitions),
        replicationFactor: Number(o.replication),
      });
      print(o.json ? { created } : created.length ? `created ${created.join(', ')}` : 'all topics exist', Boolean(o.json));
    });
  return topics;
}
