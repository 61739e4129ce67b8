#!/usr/bin/env node
// `npm run console:build`: builds the web console into apps/console/dist (served at /console).
// `npm start` and `npm test` do this themselves when the build is missing or outdated.
import { ensureConsoleBuilt } from './lib/console-build.mjs';
import { ensureNodeModules } from './lib/install.mjs';

await ensureNodeModules();
await ensureConsoleBuilt({ force: process.argv.includes('--force') });
