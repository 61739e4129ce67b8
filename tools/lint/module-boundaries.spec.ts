import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { ESLint } from 'eslint';

/**
 * The architecture is enforced by lint, so lint itself is tested: each import
 * below is linted as if it were written in the named file of the real tree.
 */
const root = join(__dirname, '../..');

async function lintAs(filePath: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintText(code, { filePath: join(root, filePath) });
  return result.messages.filter((m) => m.ruleId === '@nx/enforce-module-boundaries').map((m) => m.message);
}

beforeAll(() => {
  // The Nx rule reads the cached project graph; computing it is what `npm run lint` does first.
  execFileSync(join(root, 'node_modules/.bin/nx'), ['show', 'projects'], { cwd: root, stdio: 'ignore' });
}, 60_000);

describe('module boundaries', () => {
  it('fail when an app imports another app', async () => {
    const messages = await lintAs('apps/asset-service/src/leak.ts', `import '../../job-service/src/main';\n`);
    expect(messages.join('\n')).toMatch(/relative or absolute path|Imports of apps are forbidden/);
  });

  it("fail when a service imports another service's library (its data layer)", async () => {
    const messages = await lintAs(
      'libs/services/asset/src/leak.ts',
      `import { JobServiceModule } from '@genasset/service-job';\nexport const x = JobServiceModule;\n`,
    );
    expect(messages.join('\n')).toMatch(/tagged with "type:service" can only depend on libs tagged with/);
  });

  it("fail when a service app loads another service's library", async () => {
    const messages = await lintAs(
      'apps/asset-service/src/leak.ts',
      `import { JobServiceModule } from '@genasset/service-job';\nexport const x = JobServiceModule;\n`,
    );
    expect(messages.join('\n')).toMatch(/tagged with "scope:asset" can only depend on libs tagged with/);
  });

  it('fail when a shared library depends on a service', async () => {
    const messages = await lintAs(
      'libs/http/src/leak.ts',
      `import { WebhookDispatcherModule } from '@genasset/service-webhook';\nexport const x = WebhookDispatcherModule;\n`,
    );
    expect(messages.length).toBeGreaterThan(0);
  });

  it('pass for the allowed direction: an app loading its own service and shared libraries', async () => {
    const messages = await lintAs(
      'apps/asset-service/src/ok.ts',
      `import { ASSET_SCHEMA } from '@genasset/service-asset';\nimport { loadConfig } from '@genasset/config';\nexport const x = [ASSET_SCHEMA, loadConfig];\n`,
    );
    expect(messages).toEqual([]);
  });

  it('pass for platform composing every service through the catalog', async () => {
    const messages = await lintAs('apps/platform/src/ok.ts', `import { SERVICES } from '@genasset/service-catalog';\nexport const x = SERVICES;\n`);
    expect(messages).toEqual([]);
  });
});

/** The repository rule (eslint.config.mjs, docs/architecture.md "Feature folders"): data access only in `*.repository.ts`. */
describe('data access in repositories', () => {
  async function repositoryRule(filePath: string, code: string): Promise<string[]> {
    const eslint = new ESLint({ cwd: root });
    const [result] = await eslint.lintText(code, { filePath: join(root, filePath) });
    return result.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
  }

  const service = `
    export class LeakService {
      constructor(private readonly prisma: any) {}
      find(id: string) { return this.prisma.asset.findFirst({ where: { id } }); }
      both(tx: any) { return this.prisma.$transaction(async (t: any) => t.$executeRaw\`SELECT 1\`); }
      inTx(tx: any) { return tx.asset.updateMany({ where: {}, data: {} }); }
    }\n`;

  it('fail when a service, use case or consumer of libs/services calls Prisma itself', async () => {
    const messages = await repositoryRule('libs/services/asset/src/assets/leak.service.ts', service);
    expect(messages.join('\n')).toMatch(/inject that instead of the Prisma client/);
    expect(messages.join('\n')).toMatch(/transactions and SQL belong in a repository/);
    expect(messages.join('\n')).toMatch(/a model query on a transaction client belongs in a repository/);
  });

  it('fail in identity too', async () => {
    expect(await repositoryRule('libs/identity/src/leak.service.ts', service)).not.toEqual([]);
  });

  it('fail in the inference job path too (no folder of libs/services is left out)', async () => {
    const messages = await repositoryRule('libs/services/inference/src/work/job-lease.ts', service);
    expect(messages.join('\n')).toMatch(/inject that instead of the Prisma client/);
    expect(messages.join('\n')).toMatch(/transactions and SQL belong in a repository/);
    expect(await repositoryRule('libs/services/inference/src/work/work-queue.repository.ts', service)).toEqual([]);
  });

  it('pass for a repository, and for a service calling repository methods with tx', async () => {
    expect(await repositoryRule('libs/services/asset/src/assets/leak.repository.ts', service)).toEqual([]);
    const caller = `
      export class OkService {
        constructor(private readonly assets: any, private readonly outbox: any) {}
        remove(id: string) {
          return this.assets.transaction(async (tx: any) => { await this.assets.delete(tx, id); await this.outbox.write(tx, []); });
        }
      }\n`;
    expect(await repositoryRule('libs/services/asset/src/assets/ok.service.ts', caller)).toEqual([]);
  });
});
