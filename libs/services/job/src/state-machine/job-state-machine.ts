import { JOB_RUNNING_STATUSES, type JobRunningStatus, type JobStatus } from '@genasset/contracts';

/**
 * The job state machine, pure: no I/O, no clock. Jobs move forward along
 *
 *   pending → queued → warming-up → in-progress → finalizing → success
 *
 * and may skip forward steps from `queued` on (a fast executor reports
 * `in-progress` or even success straight from `queued`); `pending` only moves
 * to `queued`. `failure` and `canceled` are reachable from every non-final
 * status. Nothing leaves `success`, `failure` or `canceled`, and nothing moves
 * backwards. Progress never decreases.
 */
export const FINAL_STATUSES: ReadonlySet<JobStatus> = new Set(['success', 'failure', 'canceled']);
const RUNNING: ReadonlySet<JobStatus> = new Set(JOB_RUNNING_STATUSES);

/** Position on the forward path (failure and canceled are off it). */
const PATH: readonly JobStatus[] = [
  'pending',
  'queued',
  'warming-up',
  'in-progress',
  'finalizing',
  'success',
];

export function isFinal(status: JobStatus): boolean {
  return FINAL_STATUSES.has(status);
}

export function isRunning(status: JobStatus): boolean {
  return RUNNING.has(status);
}

/** Whether `from → to` is a legal move (a status to itself is not a move). */
export function canTransition(from: JobStatus, to: JobStatus): boolean {
  if (from === to || isFinal(from)) return false;
  if (to === 'failure' || to === 'canceled') return true;
  if (from === 'pending') return to === 'queued';
  return PATH.indexOf(to) > PATH.indexOf(from);
}

/** Every status a job may move to from `from`. */
export function nextStatuses(from: JobStatus): JobStatus[] {
  return [...PATH, 'failure', 'canceled'].filter((to): to is JobStatus =>
    canTransition(from, to as JobStatus),
  );
}

export interface JobState {
  readonly status: JobStatus;
  readonly progress: number;
}

/** What happened to a job, from an executor's report or a client's action. */
export type JobEvent =
  | { readonly type: 'progress'; readonly status: JobRunningStatus; readonly progress: number }
  | { readonly type: 'succeed' }
  | { readonly type: 'fail' }
  | { readonly type: 'cancel' };

export type Decision =
  /** Move to `to` (one new statusHistory entry). `started`: the first move into a running status. */
  | {
      readonly kind: 'transition';
      readonly to: JobStatus;
      readonly progress: number;
      readonly started: boolean;
    }
  /** Same status, higher progress: no history entry, no fact. */
  | { readonly kind: 'progress'; readonly progress: number }
  /** Already there (a duplicate or late repeat): nothing to change, nothing to report. */
  | { readonly kind: 'unchanged' }
  /** Illegal for the job's status. */
  | { readonly kind: 'refused'; readonly reason: string };

const clamp = (p: number) => Math.min(1, Math.max(0, p));

/** Decides what `event` does to a job in `state`; the caller applies it. */
export function decide(state: JobState, event: JobEvent): Decision {
  switch (event.type) {
    case 'progress': {
      const progress = Math.max(state.progress, clamp(event.progress));
      if (event.status === state.status) {
        return progress > state.progress ? { kind: 'progress', progress } : { kind: 'unchanged' };
      }
      return move(state, event.status, progress);
    }
    case 'succeed':
      if (state.status === 'success') return { kind: 'unchanged' };
      return move(state, 'success', 1);
    case 'fail':
      if (state.status === 'failure') return { kind: 'unchanged' };
      return move(state, 'failure', state.progress);
    case 'cancel':
      // A client asking twice is told so (409), unlike an executor repeating itself.
      return move(state, 'canceled', state.progress);
  }
}

function move(state: JobState, to: JobStatus, progress: number): Decision {
  if (!canTransition(state.status, to)) {
    const why = isFinal(state.status) ? `the job is already ${state.status}` : 'jobs never move backwards';
    return { kind: 'refused', reason: `cannot move a job from ${state.status} to ${to}: ${why}` };
  }
  const started = isRunning(to) && !isRunning(state.status);
  return { kind: 'transition', to, progress, started };
}
