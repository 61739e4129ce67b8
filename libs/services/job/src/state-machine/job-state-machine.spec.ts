import { JOB_STATUSES, type JobStatus } from '@genasset/contracts';
import { canTransition, decide, isFinal, nextStatuses, type JobState } from './job-state-machine';

// The whole table, written out: every (from, to) pair not listed is illegal.
const LEGAL: Record<JobStatus, JobStatus[]> = {
  pending: ['queued', 'failure', 'canceled'],
  queued: ['warming-up', 'in-progress', 'finalizing', 'success', 'failure', 'canceled'],
  'warming-up': ['in-progress', 'finalizing', 'success', 'failure', 'canceled'],
  'in-progress': ['finalizing', 'success', 'failure', 'canceled'],
  finalizing: ['success', 'failure', 'canceled'],
  success: [],
  failure: [],
  canceled: [],
};

const pairs = JOB_STATUSES.flatMap((from) => JOB_STATUSES.map((to) => [from, to] as const));

describe('job state machine', () => {
  it.each(pairs)('%s → %s is legal exactly when the table says so', (from, to) => {
    expect(canTransition(from, to)).toBe(LEGAL[from].includes(to));
  });

  it('lists the next statuses of each status', () => {
    for (const from of JOB_STATUSES) expect(nextStatuses(from).sort()).toEqual([...LEGAL[from]].sort());
  });

  it('has exactly three final statuses', () => {
    expect(JOB_STATUSES.filter(isFinal)).toEqual(['success', 'failure', 'canceled']);
  });

  describe('progress reports', () => {
    const at = (status: JobStatus, progress = 0): JobState => ({ status, progress });

    it('moves forward into a running status and says when the job starts', () => {
      expect(decide(at('queued'), { type: 'progress', status: 'warming-up', progress: 0 })).toEqual({
        kind: 'transition',
        to: 'warming-up',
        progress: 0,
        started: true,
      });
      expect(decide(at('queued'), { type: 'progress', status: 'in-progress', progress: 0.2 })).toMatchObject({
        started: true,
      });
      expect(
        decide(at('warming-up', 0.1), { type: 'progress', status: 'in-progress', progress: 0.3 }),
      ).toEqual({
        kind: 'transition',
        to: 'in-progress',
        progress: 0.3,
        started: false,
      });
    });

    it('raises progress within a status without a transition', () => {
      expect(
        decide(at('in-progress', 0.2), { type: 'progress', status: 'in-progress', progress: 0.5 }),
      ).toEqual({ kind: 'progress', progress: 0.5 });
    });

    it('never lowers progress: a lower or equal value in the same status changes nothing', () => {
      expect(
        decide(at('in-progress', 0.5), { type: 'progress', status: 'in-progress', progress: 0.4 }),
      ).toEqual({ kind: 'unchanged' });
      expect(
        decide(at('in-progress', 0.5), { type: 'progress', status: 'in-progress', progress: 0.5 }),
      ).toEqual({ kind: 'unchanged' });
    });

    it('keeps the higher progress when moving on with a lower value', () => {
      expect(
        decide(at('in-progress', 0.8), { type: 'progress', status: 'finalizing', progress: 0.1 }),
      ).toMatchObject({ to: 'finalizing', progress: 0.8 });
    });

    it('refuses a move backwards, and any move out of a final status', () => {
      expect(
        decide(at('in-progress', 0.5), { type: 'progress', status: 'warming-up', progress: 0.6 }),
      ).toEqual({
        kind: 'refused',
        reason: 'cannot move a job from in-progress to warming-up: jobs never move backwards',
      });
      for (const status of ['success', 'failure', 'canceled'] as const) {
        expect(decide(at(status), { type: 'progress', status: 'in-progress', progress: 0.9 })).toEqual({
          kind: 'refused',
          reason: `cannot move a job from ${status} to in-progress: the job is already ${status}`,
        });
      }
    });

    it('refuses running reports for a pending job (it has not been handed to an executor)', () => {
      expect(decide(at('pending'), { type: 'progress', status: 'in-progress', progress: 0 }).kind).toBe(
        'refused',
      );
    });
  });

  describe('results', () => {
    it('succeeds from queued or any running status with progress 1', () => {
      for (const status of ['queued', 'warming-up', 'in-progress', 'finalizing'] as const) {
        expect(decide({ status, progress: 0.4 }, { type: 'succeed' })).toEqual({
          kind: 'transition',
          to: 'success',
          progress: 1,
          started: false,
        });
      }
    });

    it('fails from any non-final status, keeping progress', () => {
      for (const status of ['pending', 'queued', 'warming-up', 'in-progress', 'finalizing'] as const) {
        expect(decide({ status, progress: 0.4 }, { type: 'fail' })).toEqual({
          kind: 'transition',
          to: 'failure',
          progress: 0.4,
          started: false,
        });
      }
    });

    it('treats a repeated result as a duplicate, and a contradicting one as refused', () => {
      expect(decide({ status: 'success', progress: 1 }, { type: 'succeed' })).toEqual({ kind: 'unchanged' });
      expect(decide({ status: 'failure', progress: 0 }, { type: 'fail' })).toEqual({ kind: 'unchanged' });
      expect(decide({ status: 'success', progress: 1 }, { type: 'fail' }).kind).toBe('refused');
      expect(decide({ status: 'failure', progress: 0 }, { type: 'succeed' }).kind).toBe('refused');
      expect(decide({ status: 'canceled', progress: 0 }, { type: 'succeed' }).kind).toBe('refused');
    });
  });

  describe('cancel', () => {
    it.each(['pending', 'queued', 'warming-up', 'in-progress', 'finalizing'] as const)(
      'cancels a %s job',
      (status) => {
        expect(decide({ status, progress: 0.3 }, { type: 'cancel' })).toEqual({
          kind: 'transition',
          to: 'canceled',
          progress: 0.3,
          started: false,
        });
      },
    );

    it.each(['success', 'failure', 'canceled'] as const)(
      'refuses to cancel a %s job, saying why',
      (status) => {
        expect(decide({ status, progress: 1 }, { type: 'cancel' })).toEqual({
          kind: 'refused',
          reason: `cannot move a job from ${status} to canceled: the job is already ${status}`,
        });
      },
    );
  });

  it('decides every event from every status without throwing, and only ever proposes legal moves', () => {
    const events = [
      ...(['warming-up', 'in-progress', 'finalizing'] as const).flatMap((status) =>
        [0, 0.5, 1].map((progress) => ({ type: 'progress' as const, status, progress })),
      ),
      { type: 'succeed' as const },
      { type: 'fail' as const },
      { type: 'cancel' as const },
    ];
    for (const status of JOB_STATUSES) {
      for (const progress of [0, 0.5, 1]) {
        for (const event of events) {
          const decision = decide({ status, progress }, event);
          if (decision.kind === 'transition') expect(canTransition(status, decision.to)).toBe(true);
          if (decision.kind === 'transition' || decision.kind === 'progress')
            expect(decision.progress).toBeGreaterThanOrEqual(progress);
          if (isFinal(status)) expect(['refused', 'unchanged']).toContain(decision.kind);
        }
      }
    }
  });
});
