import { capture } from './processes.mjs';

/** The platform's topic list, from libs/contracts itself, so the test broker can never drift from the code. */
export async function listTopics() {
  const { code, stdout, stderr } = await capture(process.execPath, [
    '-r',
    'reflect-metadata',
    '-r',
    '@swc-node/register',
    '-e',
    "console.log(require('./libs/contracts/src').allTopics().join(' '))",
  ]);
  const topics = stdout.trim().split(/\s+/).filter(Boolean);
  if (code !== 0 || !topics.length)
    throw new Error(`could not read allTopics() from libs/contracts (exit ${code}):\n${stderr}`);
  return topics;
}
