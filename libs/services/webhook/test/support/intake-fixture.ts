import { prefixedId, type JobLifecycleData } from '@genasset/contracts';
import { WebhookReceiver, type ServiceHarness, type Tenant } from '@genasset/testing';
import { FactPublisher } from './fact-publisher';
import { startWebhookHarness } from './webhook-harness';

/** A dispatcher, a producer of facts and a real receiver: what the intake and delivery tests share. */
export interface IntakeFixture {
  harness: ServiceHarness;
  facts: FactPublisher;
  receiver: WebhookReceiver;
  /** A distinct receiver URL (one URL per owner only). */
  hook(name: string): string;
  /** A generation job fact of `tenant`'s project; override any field. */
  job(tenant: Pick<Tenant, 'teamId' | 'projectId'>, extra?: Partial<JobLifecycleData>): JobLifecycleData;
  close(): Promise<void>;
}

export async function startIntakeFixture(): Promise<IntakeFixture> {
  const [harness, facts, receiver] = await Promise.all([
    startWebhookHarness(),
    FactPublisher.connect(),
    WebhookReceiver.start(),
  ]);
  return {
    harness,
    facts,
    receiver,
    hook: (name) => `${receiver.url}/${name}-${prefixedId('x').slice(-6)}`,
    job: (tenant, extra = {}) => ({
      jobId: prefixedId('job'),
      jobType: 'inference',
      kind: 'generation',
      status: 'queued',
      teamId: tenant.teamId,
      projectId: tenant.projectId,
      ...extra,
    }),
    async close() {
      await facts.close();
      await receiver.close();
      await harness.close();
    },
  };
}
