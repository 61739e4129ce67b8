import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The README's first screen is what a first-time operator runs: its commands
 * must exist, parse, and work on Linux and macOS alike.
 */
const root = join(__dirname, '../..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const firstScreen = readme.slice(0, readme.indexOf('\n## `npm test`'));
const shellBlocks = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);

/** Commands or flags found on one of the two systems only. */
const NOT_PORTABLE: [RegExp, string][] = [
  [/(^|[;&|(]\s*|\$\(\s*)(open|xdg-open|pbcopy|pbpaste|xclip)\s/m, 'a desktop command of one system'],
  [/\bsed -i\b/, 'sed -i (GNU and BSD take different arguments)'],
  [/\breadlink -f\b/, 'readlink -f (GNU only before macOS 12.3)'],
  [/\bdate -d\b/, 'date -d (GNU only)'],
  [/\bxargs -r\b/, 'xargs -r (GNU only)'],
  [/\bbase64 -w\b/, 'base64 -w (GNU only)'],
  [/\bgrep -P\b/, 'grep -P (GNU only)'],
  [/\bstat -c\b/, 'stat -c (GNU only)'],
];

describe('README', () => {
  it('says on its first screen how to receive webhooks on localhost, with variables the dispatcher reads', () => {
    const config = readFileSync(join(root, 'libs/services/webhook/src/webhook.config.ts'), 'utf8');
    for (const variable of ['WEBHOOK_ALLOW_HTTP', 'WEBHOOK_ALLOW_PRIVATE_TARGETS']) {
      expect(firstScreen).toContain(`${variable}=true`);
      expect(config).toMatch(new RegExp(`\\b${variable}:`));
    }
    expect(firstScreen).toMatch(/npm run -s cli -- webhooks listen --port (\d+) --secret/);
    expect(firstScreen).toContain('"url":"http://127.0.0.1:4000/"');
  });

  it('uses in its shell examples only commands that work on Linux and macOS', () => {
    const found = shellBlocks.flatMap((block) =>
      NOT_PORTABLE.filter(([pattern]) => pattern.test(block)).map(([, why]) => `${why}: ${block.trim().split('\n')[0]}…`),
    );
    expect(found).toEqual([]);
  });

  it('has shell examples a POSIX shell parses', () => {
    for (const block of shellBlocks) expect(() => execFileSync('sh', ['-n'], { input: block })).not.toThrow();
  });
});
