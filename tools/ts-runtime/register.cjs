// `node -r ./tools/ts-runtime/register.cjs app.ts`: runs the product's TypeScript from the
// compile cache (compile-cache.cjs says why). Stack traces name the compiled lines; with
// NODE_OPTIONS=--enable-source-maps they name the TypeScript ones (the maps cost ~30 MB of heap).
'use strict';
const { compiled } = require('./compile-cache.cjs');

require.extensions['.ts'] = function loadTypeScript(module, filename) {
  module._compile(compiled(filename), filename);
};
