import type { ApiError } from '@genasset/http';
import type { WorkflowInput, WorkflowStep } from '../workflow.dto';
import { checkRunInputs, fieldOfStepError, stepBody } from './run-inputs';

const DECLARED: WorkflowInput[] = [
  { name: 'image', type: 'file', required: { always: true } },
  { name: 'grid', type: 'number' },
  { name: 'refs', type: 'file_array' },
];

function fieldsOf(run: () => unknown): Record<string, string[]> {
  try {
    run();
  } catch (error) {
    return ((error as ApiError).infos.fields ?? {}) as Record<string, string[]>;
  }
  throw new Error('expected a 400');
}

describe('checkRunInputs', () => {
  it('keeps the declared values given, of their types', () => {
    expect(checkRunInputs(DECLARED, { image: 'asset_a1', refs: ['asset_b2'] })).toEqual({ image: 'asset_a1', refs: ['asset_b2'] });
  });

  it('names each wrong input: missing required, undeclared, of another type', () => {
    expect(Object.keys(fieldsOf(() => checkRunInputs(DECLARED, {})))).toEqual(['inputs.image']);
    expect(Object.keys(fieldsOf(() => checkRunInputs(DECLARED, { image: 'asset_a1', colour: 'red' })))).toEqual(['inputs.colour']);
    expect(fieldsOf(() => checkRunInputs(DECLARED, { image: 'data:image/png;base64,AAAA', grid: '8', refs: [] }))).toEqual({
      'inputs.image': ['image must be an asset id (asset_…)'],
      'inputs.grid': ['grid must be a number'],
      'inputs.refs': ['refs must be a list of 1 to 20 asset ids'],
    });
  });
});

const STEP: WorkflowStep = {
  id: 'pixelate',
  type: 'pixelate',
  inputs: [
    { name: 'image', type: 'file', ref: { node: 'upscale' } },
    { name: 'pixelGridSize', type: 'number', ref: { node: 'workflow', name: 'grid' } },
    { name: 'removeNoise', type: 'boolean', value: true },
    { name: 'references', type: 'file_array', ref: { node: 'upscale' } },
  ],
};

describe('stepBody', () => {
  it('binds static values, run values and the assets earlier steps made', () => {
    expect(stepBody(STEP, { grid: 16 }, () => ['asset_u1', 'asset_u2'], 'asset_x')).toEqual({
      image: 'asset_u1',
      pixelGridSize: 16,
      removeNoise: true,
      references: ['asset_u1', 'asset_u2'],
    });
  });

  it('stands in for assets not made yet, and leaves an optional input not given out', () => {
    expect(stepBody(STEP, {}, () => undefined, 'asset_x')).toEqual({ image: 'asset_x', removeNoise: true, references: ['asset_x'] });
  });
});

describe('fieldOfStepError', () => {
  it('names the run input a field came from, else the step input', () => {
    expect(fieldOfStepError(STEP, 'flow[1]', 'pixelGridSize')).toBe('inputs.grid');
    expect(fieldOfStepError(STEP, 'flow[1]', 'image')).toBe('flow[1].inputs[0]');
    expect(fieldOfStepError(STEP, 'flow[1]', 'colour')).toBe('flow[1].inputs');
  });
});
