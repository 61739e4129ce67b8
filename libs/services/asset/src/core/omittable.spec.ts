import { acceptedBody, refusedFields } from '@genasset/http';
import { LockBody, UpdateAssetBody } from '../canvas/dto/canvas.dto';
import { UploadAssetBody } from '../upload/dto/upload-asset.body';

// The bodies as the app's validation pipe sees them: a null the service cannot use is a 400 naming the field.
describe('asset bodies with null fields', () => {
  it.each(['image', 'canvas', 'thumbnail'])('POST /v1/assets refuses %s: null', async (field) => {
    expect(await refusedFields(UploadAssetBody, { canvas: '{}', [field]: null })).toEqual([field]);
  });

  it.each(['canvas', 'thumbnail', 'privacy', 'lockExpiresAt'])(
    'PUT /v1/assets/{id} refuses %s: null',
    async (field) => {
      expect(await refusedFields(UpdateAssetBody, { [field]: null })).toEqual([field]);
    },
  );

  it('PUT /v1/assets/{id}/lock refuses lockExpiresAt: null', async () => {
    expect(await refusedFields(LockBody, { lockExpiresAt: null })).toEqual(['lockExpiresAt']);
  });

  it('still accepts absent fields, and name/description: null (they clear the value)', async () => {
    await expect(acceptedBody(UploadAssetBody, { canvas: '{}' })).resolves.toEqual({ canvas: '{}' });
    await expect(acceptedBody(UpdateAssetBody, { name: null, description: null })).resolves.toEqual({
      name: null,
      description: null,
    });
    await expect(acceptedBody(LockBody, {})).resolves.toEqual({});
  });
});
