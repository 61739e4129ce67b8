import { Command, Option } from 'commander';
import { AdminClient } from './admin-client';

interface Common {
  url: string;
  adminToken?: string;
  json?: boolean;
}

/** `cli admin …`: provisions teams, projects and API keys through the admin API. */
export function adminCommand(print: (value: unknown, json: boolean) => void): Command {
  const admin = new Command('admin').description('Provision tenants through the admin API (/admin/v1)');
  const withCommon = (cmd: Command) =>
    cmd
      .addOption(new Option('--url <url>', 'base URL of the service hosting /admin/v1').env('GENASSET_URL').default('http://127.0.0.1:8080'))
      .addOption(new Option('--admin-token <token>', 'operator token').env('ADMIN_TOKEN'))
      .option('--json', 'print JSON');
  const client = (o: Common) => {
    if (!o.adminToken)
      throw new Error(
        'an admin token is required: pass --admin-token or set ADMIN_TOKEN (a server started with `npm start` keeps it as "adminToken" in .data/bootstrap.json)',
      );
    return new AdminClient(o.url, o.adminToken);
  };

  withCommon(admin.command('create-team').description('Create a team').requiredOption('--name <name>', 'team name')).action(
    async (o: Common & { name: string }) => {
      const { team } = await client(o).post<{ team: { id: string } }>('admin/v1/teams', { name: o.name });
      print(o.json ? { team } : `team ${team.id}`, Boolean(o.json));
    },
  );

  withCommon(
    admin
      .command('create-project')
      .description('Create a project in a team')
      .requiredOption('--team <teamId>', 'owning team')
      .requiredOption('--name <name>', 'project name'),
  ).action(async (o: Common & { team: string; name: string }) => {
    const { project } = await client(o).post<{ project: { id: string } }>(`admin/v1/teams/${encodeURIComponent(o.team)}/projects`, {
      name: o.name,
    });
    print(o.json ? { project } : `project ${project.id}`, Boolean(o.json));
  });

  withCommon(
    admin
      .command('create-api-key')
      .description('Issue an API key; the secret is printed once and never again')
      .requiredOption('--team <teamId>', 'team of the key')
      .option('--project <projectId>', 'restrict the key to one project')
      .addOption(new Option('--role <role>', 'role').choices(['admin', 'member']).default('member'))
      .option('--scopes <scopes>', 'comma-separated scopes, e.g. team.webhooks.manage'),
  ).action(async (o: Common & { team: string; project?: string; role: string; scopes?: string }) => {
    const issued = await client(o).post<{ apiKey: string; apiSecret: string }>('admin/v1/api-keys', {
      teamId: o.team,
      projectId: o.project,
      role: o.role,
      scopes: o.scopes ? o.scopes.split(',').map((s) => s.trim()) : undefined,
    });
    print(o.json ? issued : `apiKey ${issued.apiKey}\napiSecret ${issued.apiSecret}\n(the secret is shown only now)`, Boolean(o.json));
  });

  withCommon(
    admin
      .command('revoke-api-key')
      .description('Revoke an API key for good (replicas that cached it accept it for up to AUTH_CACHE_TTL)')
      .requiredOption('--key <keyId>', 'the key id (key_…)'),
  ).action(async (o: Common & { key: string }) => {
    const { apiKey } = await client(o).delete<{ apiKey: { id: string; revokedAt: string } }>(
      `admin/v1/api-keys/${encodeURIComponent(o.key)}`,
    );
    print(o.json ? { apiKey } : `apiKey ${apiKey.id} revoked at ${apiKey.revokedAt}`, Boolean(o.json));
  });

  return admin;
}
