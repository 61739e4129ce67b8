import { acceptedBody as parse, refusedFields, validateBody } from '@genasset/http';
import { CreateWebhookEndpointDto } from './create-webhook-endpoint.dto';
import { UpdateWebhookEndpointDto } from './update-webhook-endpoint.dto';

// The bodies as the apps' validation pipe sees them: null must be a 400 naming the field, or mean something.
describe('webhook endpoint bodies', () => {
  it.each(['url', 'enabledEvents', 'enabled'])('update refuses %s: null, naming the field', async (field) => {
    expect(await refusedFields(UpdateWebhookEndpointDto, { [field]: null })).toEqual([field]);
  });

  it('says why a null is refused', async () => {
    const verdict = await validateBody(UpdateWebhookEndpointDto, { enabled: null });
    expect(verdict.accepted || verdict.fields.enabled[0]).toBe(
      'enabled cannot be null: leave it out instead',
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
