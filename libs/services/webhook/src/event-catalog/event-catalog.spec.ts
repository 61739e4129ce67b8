import {
  createEnvelope,
  CreditThresholdCrossed,
  JOB_KINDS,
  JobCanceled,
  JobCreated,
  JobFailed,
  JobStarted,
  JobSucceeded,
  type EventDefinition,
  type JobKind,
  type JobLifecycleData,
} from '@genasset/contracts';
import { eventBody, PROJECT_EVENT_TYPES, publicJobEvent, publicTeamEvent, TEAM_EVENT_TYPES } from '.';

const FACTS = {
  created: JobCreated,
  started: JobStarted,
  succeeded: JobSucceeded,
  failed: JobFailed,
  canceled: JobCanceled,
} as const;
type Fact = keyof typeof FACTS;

const job = (kind: JobKind, extra: Partial<JobLifecycleData> = {}): JobLifecycleData => ({
  jobId: 'job_01TESTJOB',
  jobType:
    kind === 'generation'
      ? 'inference'
      : kind === 'model-training'
        ? 'model-training'
        : kind === 'asset-download'
          ? 'assets-download'
          : 'model-download',
  kind,
  status: 'queued',
  teamId: 'team_1',
  projectId: 'proj_1',
  ...extra,
});

const fact = (kind: JobKind, which: Fact, extra: Partial<JobLifecycleData> = {}) =>
  createEnvelope(FACTS[which] as EventDefinition<string, JobLifecycleData>, job(kind, extra), {
    producer: 'job-service',
  });

// The whole table: every job kind × every lifecycle fact → public type (or nothing).
const TABLE: Record<JobKind, Record<Fact, string | undefined>> = {
  generation: {
    created: 'generation.created',
    started: undefined,
    succeeded: 'generation.completed',
    failed: 'generation.failed',
    canceled: undefined, // spec: cancelled generations send no event
  },
  'asset-download': {
    created: 'asset.download.created',
    started: undefined,
    succeeded: 'asset.download.completed',
    failed: 'asset.download.failed',
    canceled: undefined,
  },
  'model-download': {
    created: 'model.download.created',
    started: undefined,
    succeeded: 'model.download.completed',
    failed: 'model.download.failed',
    canceled: undefined,
  },
  'model-training': {
    created: undefined,
    started: 'model.training.started',
    succeeded: 'model.training.completed',
    failed: 'model.training.failed',
    canceled: 'model.training.cancelled',
  },
};

describe('event catalog', () => {
  const cases = JOB_KINDS.flatMap((kind) =>
    (Object.keys(FACTS) as Fact[]).map((which) => [kind, which, TABLE[kind][which]] as const),
  );

  it.each(cases)('%s job %s → %s', (kind, which, expected) => {
    const event = publicJobEvent(fact(kind, which));
    expect(event?.type).toBe(expected);
    if (event) expect(event).toMatchObject({ ownerType: 'project', ownerId: 'proj_1' });
  });

  it('covers every project event type exactly once', () => {
    const produced = Object.values(TABLE).flatMap((row) => Object.values(row).filter(Boolean));
    expect([...produced].sort()).toEqual([...PROJECT_EVENT_TYPES].sort());
  });

  it('keeps the fact id as source id, so a redelivered fact is recognised', () => {
    const envelope = fact('generation', 'created');
    expect(publicJobEvent(envelope)?.sourceEventId).toBe(envelope.id);
  });

  describe('data shapes (spec: Payload shapes of data)', () => {
    it('generation.*: jobId, jobType, and modelId only when the job ran a model', () => {
      expect(
        publicJobEvent(fact('generation', 'succeeded', { jobType: 'inference', modelId: 'model_abc' }))?.data,
      ).toEqual({
        jobId: 'job_01TESTJOB',
        jobType: 'inference',
        modelId: 'model_abc',
      });
      for (const which of ['created', 'succeeded', 'failed'] as const) {
        const data = publicJobEvent(
          fact('generation', which, {
            jobType: 'upscale',
            output: { assetIds: ['asset_1'] },
            failureReason: 'x',
          }),
        )?.data;
        expect(data).toEqual({ jobId: 'job_01TESTJOB', jobType: 'upscale' });
      }
    });

    it.each(['asset-download', 'model-download'] as const)(
      '%s: jobId, and downloadUrl only on completed',
      (kind) => {
        const output = { downloadUrl: 'https://cdn.example.com/a.zip?sig=1' };
        expect(publicJobEvent(fact(kind, 'succeeded', { output }))?.data).toEqual({
          jobId: 'job_01TESTJOB',
          downloadUrl: output.downloadUrl,
        });
        expect(publicJobEvent(fact(kind, 'created', { output }))?.data).toEqual({ jobId: 'job_01TESTJOB' });
        expect(publicJobEvent(fact(kind, 'failed', { output }))?.data).toEqual({ jobId: 'job_01TESTJOB' });
        expect(publicJobEvent(fact(kind, 'succeeded'))?.data).toEqual({ jobId: 'job_01TESTJOB' });
      },
    );

    it('model.training.*: the model summary', () => {
      const model = { id: 'model_1', name: 'My LoRA', type: 'flux.1-lora', status: 'trained' };
      for (const which of ['started', 'succeeded', 'failed', 'canceled'] as const) {
        expect(
          publicJobEvent(fact('model-training', which, { modelId: 'model_1', output: { model } }))?.data,
        ).toEqual({ model });
      }
      // A fact naming only the model still identifies it.
      expect(publicJobEvent(fact('model-training', 'started', { modelId: 'model_1' }))?.data).toEqual({
        model: { id: 'model_1' },
      });
    });

    it('team.credit.threshold.crossed: the five spec fields, owned by the team, version 1', () => {
      const envelope = createEnvelope(
        CreditThresholdCrossed,
        {
          teamId: 'team_1',
          thresholdUnit: 'percent',
          thresholdValue: 10,
          remainingCreativeUnits: 99,
          totalPeriodCreativeUnits: 1000,
          periodStart: '2026-11-01T00:00:00.000Z',
        },
        { producer: 'job-service' },
      );
      const event = publicTeamEvent(envelope);
      expect(event).toEqual({
        sourceEventId: envelope.id,
        ownerType: 'team',
        ownerId: 'team_1',
        type: 'team.credit.threshold.crossed',
        data: {
          teamId: 'team_1',
          thresholdUnit: 'percent',
          thresholdValue: 10,
          remainingCreativeUnits: 99,
          totalPeriodCreativeUnits: 1000,
        },
        version: 1,
      });
      expect(eventBody('whevent_1', event!)).toEqual({
        id: 'whevent_1',
        type: 'team.credit.threshold.crossed',
        data: event!.data,
        version: 1,
      });
      expect(TEAM_EVENT_TYPES).toEqual(['team.credit.threshold.crossed']);
    });
  });

  it('project bodies carry id, type and data only', () => {
    const event = publicJobEvent(fact('generation', 'created'))!;
    expect(eventBody('whevent_2', event)).toEqual({
      id: 'whevent_2',
      type: 'generation.created',
      data: event.data,
    });
    expect(Object.keys(eventBody('whevent_2', event))).toEqual(['id', 'type', 'data']);
  });
});
