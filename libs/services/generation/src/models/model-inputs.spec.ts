import { checkInputDefinitions, checkInputValues, type ModelInput } from './model-inputs';

const inputs: ModelInput[] = [
  { name: 'prompt', type: 'string', required: { always: true }, minLength: 2, maxLength: 10 },
  { name: 'steps', type: 'number', min: 10, max: 50, step: 5 },
  { name: 'mode', type: 'string', allowedValues: ['fast', 'best'] },
  { name: 'image', type: 'file' },
  { name: 'mask', type: 'file', required: { ifDefined: { image: '' } } },
  { name: 'seed', type: 'number', required: { ifNotDefined: { image: 'seed is needed without an image' } } },
  { name: 'quality', type: 'number', required: { conditionalValues: { mode: ['best'] } } },
  { name: 'refs', type: 'file_array', min: 1, max: 2 },
  { name: 'loras', type: 'model_array' },
  { name: 'tags', type: 'string_array', allowedValues: ['a', 'b'] },
  { name: 'flag', type: 'boolean' },
];
const fields = (body: Record<string, unknown>) => checkInputValues(inputs, body).errors.map((e) => e.field);

describe('checkInputValues', () => {
  it('accepts a body that follows every rule and lists the ids it names', () => {
    const { errors, references } = checkInputValues(inputs, {
      prompt: 'ok',
      steps: 15,
      mode: 'best',
      quality: 1,
      image: 'asset_a',
      mask: 'asset_b',
      refs: ['asset_c'],
      loras: ['model_x'],
      tags: ['a'],
      flag: false,
    });
    expect(errors).toEqual([]);
    expect(references.assets.map((r) => r.field)).toEqual(['image', 'mask', 'refs[0]']);
    expect(references.models).toEqual([{ field: 'loras[0]', id: 'model_x' }]);
  });

  it.each([
    [{ seed: 1 }, ['prompt']],
    [{ prompt: 'x', seed: 1 }, ['prompt']],
    [{ prompt: 'x'.repeat(11), seed: 1 }, ['prompt']],
    [{ prompt: 'ok', seed: 1, steps: 12 }, ['steps']],
    [{ prompt: 'ok', seed: 1, steps: 55 }, ['steps']],
    [{ prompt: 'ok', seed: 1, steps: '15' }, ['steps']],
    [{ prompt: 'ok', seed: 1, mode: 'slow' }, ['mode']],
    [{ prompt: 'ok', image: 'asset_a' }, ['mask']],
    [{ prompt: 'ok' }, ['seed']],
    [{ prompt: 'ok', seed: 1, mode: 'best' }, ['quality']],
    [{ prompt: 'ok', seed: 1, image: 'http://x' }, ['image', 'mask']],
    [{ prompt: 'ok', seed: 1, refs: [] }, ['refs']],
    [{ prompt: 'ok', seed: 1, refs: ['asset_a', 'oops'] }, ['refs[1]']],
    [{ prompt: 'ok', seed: 1, loras: ['asset_a'] }, ['loras[0]']],
    [{ prompt: 'ok', seed: 1, tags: ['c'] }, ['tags[0]']],
    [{ prompt: 'ok', seed: 1, flag: 'true' }, ['flag']],
    [{ prompt: 'ok', seed: 1, other: 1 }, ['other']],
  ])('%j → 400 naming %j', (body, expected) => {
    expect(fields(body)).toEqual(expected);
  });

  it('the message of an ifNotDefined rule is the model’s own', () => {
    expect(checkInputValues(inputs, { prompt: 'ok' }).errors[0].messages).toEqual([
      'seed is needed without an image',
    ]);
  });
});

describe('checkInputValues with inputs named like Object.prototype members', () => {
  const proto: ModelInput[] = [
    { name: 'prompt', type: 'string' },
    { name: 'toString', type: 'string' },
    { name: 'constructor', type: 'number', required: { ifDefined: { toString: '' } } },
  ];

  it('does not take an inherited member for a given field', () => {
    expect(checkInputValues(proto, { prompt: 'a cat' }).errors).toEqual([]);
  });

  it('still checks them when they are given', () => {
    const fields = checkInputValues(proto, JSON.parse('{"toString": 5}')).errors.map((e) => e.field);
    expect(fields).toEqual(['toString', 'constructor']);
  });
});

describe('checkInputDefinitions', () => {
  it('accepts well-formed definitions', () => {
    expect(checkInputDefinitions(inputs).errors).toEqual([]);
  });

  it.each([
    ['not an array', {}, 'inputs'],
    ['a bad name', [{ name: '1x', type: 'string' }], 'inputs[0].name'],
    [
      'a duplicate',
      [
        { name: 'a', type: 'string' },
        { name: 'a', type: 'number' },
      ],
      'inputs[1].name',
    ],
    ['an unknown type', [{ name: 'a', type: 'date' }], 'inputs[0].type'],
    ['a zero step', [{ name: 'a', type: 'number', step: 0 }], 'inputs[0].step'],
    ['an unknown field', [{ name: 'a', type: 'number', colour: 1 }], 'inputs[0].colour'],
    [
      'a rule on a missing input',
      [{ name: 'a', type: 'number', required: { ifDefined: { b: '' } } }],
      'inputs[0].required.ifDefined',
    ],
    [
      'an unknown rule',
      [{ name: 'a', type: 'number', required: { sometimes: true } }],
      'inputs[0].required.sometimes',
    ],
  ])('refuses %s, naming %s', (_label, value, field) => {
    expect(checkInputDefinitions(value).errors.map((e) => e.field)).toContain(field);
  });
});
