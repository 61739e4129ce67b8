// Maps the tsconfig path aliases (@genasset/*) onto Jest's moduleNameMapper so
// tests import libraries exactly as the apps do.
const { compilerOptions } = require('../../tsconfig.base.json');
const path = require('node:path');

function pathsToModuleNameMapper() {
  const root = path.resolve(__dirname, '../..');
  const mapper = {};
  for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
    mapper[`^${alias.replace(/[/]/g, '\\/')}$`] = path.join(root, target);
  }
  return mapper;
}
module.exports = { pathsToModuleNameMapper };
