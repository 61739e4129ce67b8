import { ApiError } from '@genasset/http';
import { checkWorkflowGraph, dependencyOrder } from './workflow-graph';
import type { WorkflowStep } from './workflow.dto';

const fromWorkflow = { name: 'image', type: 'file', ref: { node: 'workflow', name: 'image' } };
const from = (node: string) => ({ name: 'image', type: 'file', ref: { node } });
const upscale = (id: string, input: WorkflowStep['inputs'][number]): WorkflowStep => ({ id, type: 'upscale', inputs: [input] });
const fields = (run: () => unknown): string[] => {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return Object.keys(error.infos.fields as object);
    throw error;
  }
  throw new Error('accepted');
};

describe('workflow graph', () => {
  it('orders steps after the ones they bind to, independent steps side by side in flow order', () => {
    // d takes b and c; b and c both take a: a, then b and c (parallel), then d.
    const flow = [upscale('d', from('b')), upscale('b', from('a')), upscale('c', from('a')), upscale('a', fromWorkflow)];
    flow[0].inputs.push({ name: 'mask', type: 'file', ref: { node: 'c' } });
    expect(dependencyOrder(flow).map((s) => s.id)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('names a step of a cycle, even one not reached from the workflow inputs', () => {
    expect(fields(() => dependencyOrder([upscale('a', fromWorkflow), upscale('b', from('c')), upscale('c', from('b'))]))).toEqual([
      'flow[1].inputs',
    ]);
  });

  it('counts a bound input as given for the mode’s required fields, and refuses an unbound required one', () => {
    const inputs = [{ name: 'image', type: 'file' }];
    expect(checkWorkflowGraph(inputs, [upscale('a', fromWorkflow)]).map((s) => s.id)).toEqual(['a']);
    expect(fields(() => checkWorkflowGraph(inputs, [{ id: 'a', type: 'upscale', inputs: [] }]))).toEqual(['flow[0].inputs']);
  });
});
