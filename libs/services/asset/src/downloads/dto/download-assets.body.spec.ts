import { ApiError, createValidationPipe } from '@genasset/http';
import { DownloadAssetsBody } from './download-assets.body';

// Nested fields are named by their path once, in the key and in the message.
describe('POST /v1/assets/download body', () => {
  const pipe = createValidationPipe();
  const refusal = async (body: object) => {
    const error: unknown = await pipe.transform(body, { type: 'body', metatype: DownloadAssetsBody }).then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!(error instanceof ApiError)) throw new Error(`${JSON.stringify(body)} was accepted`);
    expect(error.getStatus()).toBe(400);
    return error.infos.fields as Record<string, string[]>;
  };
  const assetIds = ['asset_01M8171FCFZB68FC083F6JX0PN'];

  it.each([
    [{ fileNameTemplate: 123 }, 'options.fileNameTemplate', 'options.fileNameTemplate must be a string'],
    [{ flat: 'yes' }, 'options.flat', 'options.flat must be true or false'],
  ])('refuses options %j naming %s', async (options, field, message) => {
    const fields = await refusal({ assetIds, options });
    expect(Object.keys(fields)).toEqual([field]);
    expect(fields[field]).toContain(message);
  });
});
