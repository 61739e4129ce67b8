import { appendFileSync } from 'node:fs';
import { testServices } from './test-services';

/**
 * Takes the test broker's brokers down and up without killing it (killing the
 * mock cluster would lose every topic, message and offset — a real Kafka restart
 * does not). Only available on the librdkafka mock broker.
 */
export const brokerControl = {
  available(): boolean {
    return Boolean(testServices().kafkaControl);
  },
  async down(brokerId?: number): Promise<void> {
    send(brokerId === undefined ? 'down' : `down ${brokerId}`);
    await new Promise((r) => setTimeout(r, 300));
  },
  async up(brokerId?: number): Promise<void> {
    send(brokerId === undefined ? 'up' : `up ${brokerId}`);
    await new Promise((r) => setTimeout(r, 300));
  },
};

function send(command: string): void {
  const fifo = testServices().kafkaControl;
  if (!fifo) throw new Error('broker control needs the mock broker (KAFKA_MOCK_CONTROL)');
  appendFileSync(fifo, `${command}\n`);
}
