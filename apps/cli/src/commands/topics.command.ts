import { Command, Option } from 'commander';

// The topic list and the Kafka client are loaded by the actions: the rest of the CLI starts without them.
async function contracts() {
  await import('reflect-metadata');
  return import('@genasset/contracts');
}

/** `cli topics list|create`: topic provisioning is its own step, never done by services at start. */
export function topicsCommand(print: (value: unknown, json: boolean) => void): Command {
  const topics = new Command('topics').description('Kafka topics of the platform');
  topics
    .command('list')
    .description('Print every topic, dead-letter topics included')
    .option('--json', 'print JSON')
    .action(async (o: { json?: boolean }) => {
      const { allTopics } = await contracts();
      print(o.json ? allTopics() : allTopics().join('\n'), Boolean(o.json));
    });
  topics
    .command('create')
    .description('Create missing topics on the brokers (idempotent)')
    .addOption(new Option('--brokers <list>', 'comma-separated brokers').env('KAFKA_BROKERS').makeOptionMandatory())
    .option('--partitions <n>', 'partitions per topic (default: DEFAULT_PARTITIONS of libs/contracts)')
    .addOption(new Option('--replication <n>', 'replication factor').default('1'))
    .option('--json', 'print JSON')
    .action(async (o: { brokers: string; partitions?: string; replication: string; json?: boolean }) => {
      const { allTopics, DEFAULT_PARTITIONS } = await contracts();
      const { provisionTopics } = await import('@genasset/messaging');
      const created = await provisionTopics(o.brokers.split(','), allTopics(), {
        partitions: Number(o.partitions ?? DEFAULT_PARTITIONS),
        replicationFactor: Number(o.replication),
      });
      print(o.json ? { created } : created.length ? `created ${created.join(', ')}` : 'all topics exist', Boolean(o.json));
    });
  return topics;
}
