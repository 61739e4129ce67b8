import type { InputOf } from './field-rule';
import type { GenerationMode, MODE_TABLE } from './mode-table';

/** The validated request of mode `M`, typed by its fields' rules in {@link MODE_TABLE}. */
export type ModeInput<M extends GenerationMode> = InputOf<(typeof MODE_TABLE)[M]['fields']>;

/**
 * The shape of mode `M`'s request body class (enums as their base type: the class declares
 * `format?: string` and its IsIn rule narrows it). A route's body `implements` it, so a field the
 * table requires cannot be missing from the class, nor typed otherwise.
 */
export type ModeBody<M extends GenerationMode> = InputOf<(typeof MODE_TABLE)[M]['fields'], true>;

/** What generation-service adds to a request to make a job's `input`. */
// A type, not an interface: a job's input must stay assignable to plain JSON (Record<string, unknown>).
export type JobInputExtras<M extends GenerationMode = GenerationMode> = {
  /** The mode: what the worker dispatches on. */
  generationMode: M;
  /** Output 0 of the job + asset modes gets this id (announced as pending in the response). */
  outputAssetId?: string;
  /** A registry model's learned files, for the engine to apply. */
  learnedModel?: Record<string, unknown>;
};

/**
 * The `input` of a generation job of mode `M`, from the generate route to the engine: the validated
 * request (its data-URL images replaced by stored-input keys) and the {@link JobInputExtras}. It
 * travels as JSON (job-service stores it, `job.work.requested` carries it) and is validated once,
 * by the route.
 */
export type ModeJobInput<M extends GenerationMode = GenerationMode> = ModeInput<M> & JobInputExtras<M>;
