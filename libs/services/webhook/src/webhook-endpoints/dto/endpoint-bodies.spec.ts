import type { ArgumentMetadata } from '@nestjs/common';
import { ApiError, createValidationPipe } from '@genasset/http';
import { CreateWebhookEndpointDto } from './create-webhook-endpoint.dto';
import { UpdateWebhookEndpointDto } from './update-webhook-endpoint.dto';

// The bodies as the apps' validation pipe sees them: null must be a 400 naming the field, or mean something.
describe('webhook endpoint bodies', () => {
  const pipe = createValidationPipe();
  const parse = (metatype: ArgumentMetadata['metatype'], body: object) =>
    pipe.transform(body, { type: 'body', metatype });
  const refusedFields = async (metatype: ArgumentMetadata['metatype'], body: object) => {
    const error: unknown = await parse(metatype, body).then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!(error instanceof ApiError)) throw new Error(`${JSON.stringify(body)} was accepted`);
    expect(error.getStatus()).toBe(400);
    return Object.keys(error.infos.fields as object);
  };

  it.each(['url', 'enabledEvents', 'enabled'])('update refuses %s: null, naming the field', async (field) => {
    expect(await refusedFields(UpdateWebhookEndpointDto, { [field]: null })).toEqual([field]);
  });

  it('says why a null is refused', async () => {
    const error = (await parse(UpdateWebhookEndpointDto, { enabled: null }).catch(
      (e: unknown) => e,
    )) as ApiError;
    expect((error.infos.fields as Record<string, string[]>).enabled[0]).toBe(
      'enabled cannot be null: leave it out to keep the current value',
    );
  });

  it('update accepts description: null (it removes the note) and absent fields', async () => {
    await expect(parse(UpdateWebhookEndpointDto, { description: null })).resolves.toEqual({
      description: null,
    });
    await expect(parse(UpdateWebhookEndpointDto, {})).resolves.toEqual({});
    await expect(parse(UpdateWebhookEndpointDto, { enabled: false })).resolves.toEqual({ enabled: false });
  });

  it.each(['url', 'enabledEvents'])('create refuses %s: null, naming the field', async (field) => {
    const body = { url: 'https://example.com/hooks', enabledEvents: ['*'], [field]: null };
    expect(await refusedFields(CreateWebhookEndpointDto, body)).toEqual([field]);
  });

  it('create takes description: null as no note', async () => {
    const body = { url: 'https://example.com/hooks', enabledEvents: ['*'], description: null };
    await expect(parse(CreateWebhookEndpointDto, body)).resolves.toEqual(body);
  });
});
