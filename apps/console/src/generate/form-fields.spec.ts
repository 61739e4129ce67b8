import { bodyFields, buildBody, initialValues, parameterFields } from './form-fields';
import type { OpenApiDocument } from './openapi';

// A slice of the API's document: PixelateBody as /v1/openapi.json publishes it, plus the shapes
// other generate bodies use (a string-or-integer seed, a described $ref, a list of numbers).
const doc: OpenApiDocument = {
  paths: {},
  components: {
    schemas: {
      PixelateBody: {
        type: 'object',
        properties: {
          image: { type: 'string', description: 'The asset id of the image to pixelate' },
          pixelGridSize: { type: 'number', enum: [16, 32, 64, 128, 256] },
          removeNoise: { type: 'boolean' },
          removeBackground: { type: 'boolean', default: false },
          colorPalette: { type: 'array', items: { type: 'array', items: { type: 'integer' } } },
          colorPaletteSize: { type: 'integer', minimum: 2, maximum: 256 },
          seed: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
          ipAdapterScales: { type: 'array', items: { type: 'number' } },
          crop: { allOf: [{ $ref: '#/components/schemas/Crop' }], description: 'crop box' },
        },
        required: ['image', 'pixelGridSize', 'removeNoise'],
      },
      Crop: { type: 'object', properties: { x: { type: 'number' } } },
    },
  },
};
const body = doc.components!.schemas!.PixelateBody;

describe('forms built from the OpenAPI document', () => {
  it('offers one control per property, required ones first, each fitting its schema', () => {
    const fields = bodyFields(doc, body);
    expect(fields.map((f) => [f.name, f.control, f.required])).toEqual([
      ['image', 'text', true],
      ['pixelGridSize', 'select', true],
      ['removeNoise', 'checkbox', true],
      ['removeBackground', 'optional-boolean', false],
      ['colorPalette', 'json', false],
      ['colorPaletteSize', 'number', false],
      ['seed', 'text', false],
      ['ipAdapterScales', 'number-list', false],
      ['crop', 'json', false],
    ]);
    expect(fields[1].options).toEqual(['16', '32', '64', '128', '256']);
  });

  it('sends what the user filled in, typed as the schema says, and leaves empty optional fields out', () => {
    const fields = bodyFields(doc, body);
    const values = {
      ...initialValues(fields, { image: 'asset_1' }),
      pixelGridSize: '32',
      seed: '42',
      colorPalette: '[[1,2,3]]',
      ipAdapterScales: '0.5, 1',
    };
    expect(buildBody(fields, values)).toEqual({
      body: {
        image: 'asset_1',
        pixelGridSize: 32,
        removeNoise: false,
        seed: 42,
        colorPalette: [[1, 2, 3]],
        ipAdapterScales: [0.5, 1],
      },
      errors: {},
    });
  });

  it('names each field it cannot send instead of sending a wrong body', () => {
    const fields = bodyFields(doc, body);
    const values = { ...initialValues(fields), colorPalette: '[[1,2', colorPaletteSize: '2.5' };
    expect(buildBody(fields, values).errors).toEqual({
      image: 'required',
      pixelGridSize: 'required',
      colorPalette: 'not valid JSON',
      colorPaletteSize: '"2.5" is not a whole number',
    });
  });

  it('turns query parameters into filters: enums pick, dates convert to ISO 8601', () => {
    const fields = parameterFields(
      doc,
      [
        { name: 'pageSize', in: 'query', schema: { type: 'integer' } },
        { name: 'status', in: 'query', schema: { type: 'string', enum: ['success', 'failed'] } },
        { name: 'createdAfter', in: 'query', schema: { type: 'string', format: 'date-time' } },
      ],
      ['pageSize'],
    );
    expect(fields.map((f) => [f.name, f.control])).toEqual([
      ['status', 'select'],
      ['createdAfter', 'datetime'],
    ]);
    const { body: query } = buildBody(fields, { status: 'failed', createdAfter: '2026-11-21T13:00:00Z' });
    expect(query).toEqual({ status: 'failed', createdAfter: '2026-11-21T13:00:00.000Z' });
  });
});
