import { prefixedId, type JobLifecycleData } from '@genasset/contracts';
import { WebhookReceiver, type ServiceHarness, type Tenant } from '@genasset/testing';
import { FactPublisher } from './fact-publisher';
import { PERMISSIVE, startWebhookHarness } from './webhook-harness';

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

/** `env` adds to the dispatcher's environment (e.g. its worker's caps). */
export async function startIntakeFixture(env: Record<string, string> = {}): Promise<IntakeFixture> {
  const [harness, facts, receiver] = await Promise.all([
    startWebhookHarness({ ...PERMISSIVE, ...env }),
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
