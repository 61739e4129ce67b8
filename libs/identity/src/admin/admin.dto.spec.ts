import { acceptedBody as parse, refusedFields } from '@genasset/http';
import { CreateApiKeyDto, CreateProjectDto, CreateTeamDto } from './admin.dto';

// The admin bodies as the apps' validation pipe sees them.
describe('admin API bodies', () => {
  const teamId = 'team_01M81850KRD8FF42GTXE06FPKJ';

  // A null projectId must not silently issue a team-level key (wider than a project key).
  it.each(['projectId', 'scopes'])('api key refuses %s: null, naming the field', async (field) => {
    expect(await refusedFields(CreateApiKeyDto, { teamId, role: 'member', [field]: null })).toEqual([field]);
  });

  it('api key accepts the optional fields left out', async () => {
    await expect(parse(CreateApiKeyDto, { teamId, role: 'member' })).resolves.toEqual({
      teamId,
      role: 'member',
    });
  });

  it.each([CreateTeamDto, CreateProjectDto])('%p refuses a blank name', async (metatype) => {
    expect(await refusedFields(metatype, { name: '   ' })).toEqual(['name']);
    await expect(parse(metatype, { name: ' Acme ' })).resolves.toEqual({ name: ' Acme ' });
  });
});
