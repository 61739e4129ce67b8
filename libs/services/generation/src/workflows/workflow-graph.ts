import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { ApiError, flattenValidationErrors, type FieldError } from '@genasset/http';
import { checkCustomBody } from '../generate/custom-generate.service';
import { FOREIGN_ID } from '../generate/dto/fields';
import { checkRules } from '../generate/generate.service';
import { MODE_REGISTRY } from '../generate/modes/mode-registry';
import type { ModeDefinition } from '../generate/modes/mode-definition';
import { RESULT_KINDS } from '../generate/responses/mode-responses';
import type { WorkflowInput, WorkflowStep, WorkflowStepOutput } from './workflow.dto';

/** The node name a binding uses for the workflow's own inputs (upstream's). */
export const WORKFLOW_NODE = 'workflow';
export const CUSTOM_MODEL_STEP = 'custom-model';
/** What a step outputs when it declares nothing: its asset (every step kind a workflow runs makes one). */
export const DEFAULT_OUTPUTS: readonly WorkflowStepOutput[] = [{ name: 'image', type: 'file' }];

/** Modes whose job makes assets (not a result of its own: caption, segments…): the ones a step can be, since steps pass assets on. */
const STEP_MODES = new Map<string, ModeDefinition>(MODE_REGISTRY.filter((m) => !RESULT_KINDS.has(m.response) && m.response !== 'segment').map((m) => [m.name, m]));

export function stepMode(type: string): ModeDefinition | undefined {
  return STEP_MODES.get(type);
}

export const outputsOf = (step: Pick<WorkflowStep, 'outputs'>): readonly WorkflowStepOutput[] =>
  step.outputs?.length ? step.outputs : DEFAULT_OUTPUTS;

/**
 * The checks of a workflow's graph that its DTO cannot say, every error named
 * by its path (`flow[1].inputs[0].ref.node`): unique names, each step a known
 * mode (or a custom model with its id), each input either a static value or a
 * binding that resolves (a declared workflow input, another step's output),
 * no cycle, and each step's static params valid for its mode (the mode's own
 * body class and rules, bound inputs counted as given). Returns the steps in
 * dependency order when the graph is valid; throws a 400 otherwise.
 */
export function checkWorkflowGraph(inputs: readonly WorkflowInput[], flow: readonly WorkflowStep[]): WorkflowStep[] {
  const errors: FieldError[] = [];
  const inputNames = new Set<string>();
  inputs.forEach((input, i) => {
    if (inputNames.has(input.name)) errors.push({ field: `inputs[${i}].name`, messages: [`input ${input.name} is declared twice`] });
    inputNames.add(input.name);
  });
  const steps = new Map<string, WorkflowStep>();
  flow.forEach((step, i) => {
    if (step.id === WORKFLOW_NODE) errors.push({ field: `flow[${i}].id`, messages: [`${WORKFLOW_NODE} names the workflow's inputs, not a step`] });
    else if (steps.has(step.id)) errors.push({ field: `flow[${i}].id`, messages: [`step ${step.id} is declared twice`] });
    else steps.set(step.id, step);
  });
  flow.forEach((step, i) => errors.push(...checkStep(step, `flow[${i}]`, inputNames, steps)));
  if (errors.length > 0) throw ApiError.validation(errors);
  return dependencyOrder(flow);
}

function checkStep(step: WorkflowStep, at: string, inputNames: Set<string>, steps: Map<string, WorkflowStep>): FieldError[] {
  const errors: FieldError[] = [];
  const names = new Set<string>();
  step.inputs.forEach((input, j) => {
    const here = `${at}.inputs[${j}]`;
    if (names.has(input.name)) errors.push({ field: `${here}.name`, messages: [`input ${input.name} is given twice`] });
    names.add(input.name);
    const hasValue = input.value !== undefined;
    if (hasValue === (input.ref !== undefined))
      errors.push({ field: here, messages: [`input ${input.name} needs a value or a ref, not both`] });
    const ref = input.ref;
    if (!ref) return;
    if (ref.node === WORKFLOW_NODE) {
      if (ref.name === undefined || !inputNames.has(ref.name))
        errors.push({ field: `${here}.ref.name`, messages: [`the workflow declares no input ${ref.name ?? '(none named)'}`] });
      return;
    }
    const source = steps.get(ref.node);
    if (!source || source === step)
      errors.push({ field: `${here}.ref.node`, messages: [`${ref.node} is not another step of the flow`] });
    else if (ref.name !== undefined && !outputsOf(source).some((o) => o.name === ref.name))
      errors.push({ field: `${here}.ref.name`, messages: [`step ${ref.node} has no output ${ref.name}`] });
  });
  if (errors.length > 0) return errors;
  return checkParams(step, at);
}

/** The step's static values against its mode's body, its bound inputs counted as given. */
function checkParams(step: WorkflowStep, at: string): FieldError[] {
  const statics = Object.fromEntries(step.inputs.filter((i) => i.ref === undefined).map((i) => [i.name, i.value]));
  const bound = new Set(step.inputs.filter((i) => i.ref !== undefined).map((i) => i.name));
  const fieldOf = (name: string) => {
    const j = step.inputs.findIndex((i) => i.name === name.split('.')[0]);
    return j < 0 ? `${at}.inputs` : `${at}.inputs[${j}]`;
  };
  const located = (list: FieldError[]) =>
    list.filter((e) => !bound.has(e.field.split('.')[0])).map((e) => ({ field: fieldOf(e.field), messages: e.messages }));
  if (step.type === CUSTOM_MODEL_STEP) {
    if (step.modelId === undefined || !FOREIGN_ID.test(step.modelId))
      return [{ field: `${at}.modelId`, messages: ['a custom-model step needs the modelId of a model'] }];
    return caught(() => checkCustomBody(statics), located);
  }
  if (step.modelId !== undefined) return [{ field: `${at}.modelId`, messages: ['only a custom-model step names a modelId'] }];
  const mode = stepMode(step.type);
  if (!mode)
    return [{ field: `${at}.type`, messages: [`${step.type} is not a step type: ${CUSTOM_MODEL_STEP} or one of ${[...STEP_MODES.keys()].join(', ')}`] }];
  // Bound names present (undefined) so the whitelist refuses a name the mode does not take.
  const body = { ...statics, ...Object.fromEntries([...bound].map((name) => [name, undefined])) };
  const errors = validateSync(plainToInstance(mode.body, body), { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: false });
  const fields = located(flattenValidationErrors(errors));
  // Bound inputs are given at run time: a placeholder satisfies the mode's one-of groups.
  const given = { ...statics, ...Object.fromEntries([...bound].map((name) => [name, WORKFLOW_NODE])) };
  return [...fields, ...caught(() => checkRules(mode, given), located)];
}

function caught(check: () => unknown, located: (list: FieldError[]) => FieldError[]): FieldError[] {
  try {
    check();
    return [];
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const fields = (error.infos.fields ?? {}) as Record<string, string[]>;
    return located(Object.entries(fields).map(([field, messages]) => ({ field, messages })));
  }
}

/** The steps, each after those it binds to (Kahn's order, flow order among equals); 400 naming a step of a cycle. */
export function dependencyOrder(flow: readonly WorkflowStep[]): WorkflowStep[] {
  const deps = new Map(flow.map((s) => [s.id, new Set(s.inputs.map((i) => i.ref?.node).filter((n): n is string => !!n && n !== WORKFLOW_NODE))]));
  const done = new Set<string>();
  const order: WorkflowStep[] = [];
  while (order.length < flow.length) {
    const ready = flow.filter((s) => !done.has(s.id) && [...deps.get(s.id)!].every((d) => done.has(d)));
    if (ready.length === 0) {
      const i = flow.findIndex((s) => !done.has(s.id));
      throw ApiError.validation([{ field: `flow[${i}].inputs`, messages: [`step ${flow[i].id} is part of a cycle of bindings`] }]);
    }
    for (const s of ready) {
      done.add(s.id);
      order.push(s);
    }
  }
  return order;
}
