// Validates Kubernetes objects against the schemas generated from the official
// OpenAPI documents (kubernetes-models; @kubernetes-models/keda and
// /gateway-api for the CRDs), offline. Those packages are ESM-only, so
// tools/deploy/k8s.spec.ts runs this file as a child process:
//
//   node tools/deploy/support/k8s-schema-check.mjs < objects.json  →  {"results":[{"ref","errors"}]}
//
// Two checks per object:
// 1. the package's compiled JSON-schema validator (types, required fields,
//    enums, formats, patterns);
// 2. unknown fields, which those schemas allow (as the API server prunes
//    them silently): each object is type-checked as a TypeScript literal of
//    the package's interface for its kind, so a misspelt field
//    (`livenesProbe`, `resource`) is an error, as `kubeconform -strict` has it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const ts = require('typescript');
const here = dirname(fileURLToPath(import.meta.url));

/** apiVersion → the package path of its models. */
function modulePath(apiVersion, kind) {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  if (group === 'keda.sh') return `@kubernetes-models/keda/keda.sh/${version}/${kind}`;
  if (group === 'gateway.networking.k8s.io')
    return `@kubernetes-models/gateway-api/gateway.networking.k8s.io/${version}/${kind}`;
  if (group.includes('.') && !group.endsWith('.k8s.io')) return undefined;
  return `kubernetes-models/${group ? `${group}/` : ''}${version}/${kind}`;
}

function describe(errors) {
  return errors.map(
    (e) =>
      `${e.instancePath || '/'} ${e.message ?? e.keyword}${e.params?.allowedValues ? ` (${e.params.allowedValues.join(', ')})` : ''}`,
  );
}

const objects = JSON.parse(readFileSync(0, 'utf8'));
const results = [];
const typed = [];
for (const [index, object] of objects.entries()) {
  const ref = `${object?.kind}/${object?.metadata?.name}`;
  const errors = [];
  const path = object?.apiVersion && object?.kind ? modulePath(object.apiVersion, object.kind) : undefined;
  if (!path) {
    results.push({ ref, errors: [`no schema for apiVersion ${object?.apiVersion} kind ${object?.kind}`] });
    continue;
  }
  let Model;
  try {
    Model = (await import(path))[object.kind];
  } catch (error) {
    results.push({
      ref,
      errors: [`no schema for ${object.apiVersion} ${object.kind} (${error.code ?? error.message})`],
    });
    continue;
  }
  try {
    new Model(object).validate();
  } catch (error) {
    errors.push(...(error.errors ? describe(error.errors) : [error.message]));
  }
  typed.push({ index, path, kind: object.kind, object });
  results.push({ ref, errors });
}

// Unknown fields: one TypeScript program, one typed literal per object.
const source = [
  ...typed.map((t, i) => `import type { I${t.kind} as T${i} } from ${JSON.stringify(t.path)};`),
  ...typed.map((t, i) => `export const o${i}: T${i} = ${JSON.stringify(t.object, null, 1)};`),
].join('\n');
const fileName = join(here, '__k8s_objects__.ts');
const options = {
  noEmit: true,
  strict: true,
  skipLibCheck: true,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  target: ts.ScriptTarget.ES2022,
  types: [],
};
const host = ts.createCompilerHost(options);
const readFile = host.readFile.bind(host);
const fileExists = host.fileExists.bind(host);
host.readFile = (f) => (f === fileName ? source : readFile(f));
host.fileExists = (f) => f === fileName || fileExists(f);
const getSourceFile = host.getSourceFile.bind(host);
host.getSourceFile = (f, languageVersion, ...rest) =>
  f === fileName
    ? ts.createSourceFile(f, source, languageVersion, true)
    : getSourceFile(f, languageVersion, ...rest);
const program = ts.createProgram([fileName], options, host);
const file = program.getSourceFile(fileName);
for (const diagnostic of ts.getPreEmitDiagnostics(program, file)) {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
  if (diagnostic.file !== file || diagnostic.start === undefined) {
    results.push({ ref: '(type check)', errors: [message] });
    continue;
  }
  // Which object literal the diagnostic is in, and where inside it.
  const statement = file.statements.find((s) => s.pos <= diagnostic.start && diagnostic.start < s.end);
  const name = statement?.declarationList?.declarations?.[0]?.name?.text;
  const position = Number(/^o(\d+)$/.exec(name ?? '')?.[1]);
  const target = Number.isInteger(position) ? results[typed[position].index] : undefined;
  const { line } = file.getLineAndCharacterOfPosition(diagnostic.start);
  const text = source.split('\n')[line].trim();
  (target ?? results[0]).errors.push(`${message} (at ${text})`);
}

process.stdout.write(JSON.stringify({ results }));
