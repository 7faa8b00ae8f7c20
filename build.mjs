// Bundles src/ into the one committed file dist/gsd-check, and, with --tests,
// each test file into .test-out/ so node:test can run them on Node 20 (no TS loader).
import { build, transform } from 'esbuild';
import { chmodSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sourceFiles, sourceId } from './build-id.mjs';
import { builtVersion } from './release/built-version.mjs';

const built = builtVersion('.');

// --only OUT,OUT: rebuild just these outputs (dist/gsd-check, .test-out/…)
// of an earlier --tests build, leaving the rest in place; the mutation
// harness rebuilds only what a mutant's file goes into (see INPUTS below).
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt === -1 ? null : new Set(process.argv[onlyAt + 1].split(','));
// Which files each output is made of, written by --tests: {output: {entry, inputs}}.
const INPUTS = '.test-out/inputs.json';
// --program-maps: inline source maps in dist/gsd-check's launcher and program,
// and in the test bundles, for the mutation harness's coverage run
// (mutate/run.mjs), which maps the coverage of each test file and of the CLI
// tests' processes back to their sources. Nothing else reads them (node
// --test does not apply a source map unless told to), and they are most of
// a test bundle's bytes: the other builds leave them out.
const programMaps = process.argv.includes('--program-maps') ? { sourcemap: 'inline' } : {};

// The YAML library (js-yaml's dist file, the one GSD vendors), minified into
// a string that src/artifact/frontmatter.ts compiles on first use, so that it costs
// nothing at start-up (see that file).
const yaml = await build({
  entryPoints: ['node_modules/js-yaml/dist/js-yaml.js'],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  minify: true,
  legalComments: 'none',
  write: false,
  metafile: true,
  logLevel: 'warning',
});

// The frontmatter parsing thread (src/artifact/frontmatter-worker.ts), kept
// as text: a standalone binary can start a thread from code, not from a file.
const worker = await build({
  entryPoints: ['src/artifact/frontmatter-worker.ts'],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  legalComments: 'none',
  // No comments: the program that embeds this text sits in one (see below).
  minifyWhitespace: true,
  write: false,
  metafile: true,
  logLevel: 'warning',
});

// The JSON Schemas of what users write, made from the valibot schemas by
// schemas/generate.ts: committed under schemas/ (CI fails when they differ
// from this build, as for dist/) and baked into the program for
// `gsd-check schema`. The converter runs here only: it is not in the bundle.
const generator = await build({
  entryPoints: ['schemas/generate.ts'],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  write: false,
  metafile: true,
  logLevel: 'warning',
});
const { generateSchemas } = await import(`data:text/javascript;base64,${Buffer.from(generator.outputFiles[0].text).toString('base64')}`);
const schemas = generateSchemas();
for (const [name, schema] of Object.entries(schemas)) writeFileSync(`schemas/${name}.schema.json`, `${JSON.stringify(schema, null, 2)}\n`);

// Texts the program carries but reads only for some commands, each the value
// of a name its source uses as a string.
const texts = {
  YAML_SOURCE: yaml.outputFiles[0].text,
  FRONTMATTER_WORKER: worker.outputFiles[0].text,
  // GSD 1.14's gate declarations (builtinCapabilities in src/gates/sources.ts) as one compact
  // string: V8 scans a string literal faster than it preparses the same
  // object literal, which every start would pay for.
  GSD_BUILTIN_GATES: JSON.stringify(JSON.parse(readFileSync('src/gates/gsd-1.14/capabilities.json', 'utf8'))),
  // validate's registry and the schemas of `gsd-check schema`, as JSON text:
  // an object in a define would become a module of its own, built at every start.
  GSD_REGISTRY: JSON.stringify(JSON.parse(readFileSync('src/gates/gsd-1.14/registry.json', 'utf8'))),
  GSD_CHECK_SCHEMAS: JSON.stringify(schemas),
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  // Node 20 has them; esbuild would rewrite such a literal (valibot's unused
  // EMOJI_REGEX) as new RegExp(), a call it cannot drop, which every start
  // then compiles with ICU's property tables.
  supported: { 'regexp-unicode-property-escapes': true },
  // Baked in, so the bundle never reads package.json at run time (it is
  // vendored alone).
  define: {
    GSD_CHECK_VERSION: JSON.stringify(built.version),
    GSD_CHECK_AFTER: JSON.stringify(built.after ?? ''),
    GSD_CHECK_SOURCE_ID: JSON.stringify(sourceId()),
    // In the tests' bundles and the Action's, every text is a string literal
    // where it is used.
    ...Object.fromEntries(Object.entries(texts).map(([name, text]) => [name, JSON.stringify(text)])),
  },
  metafile: true,
  logLevel: 'warning',
};

// The files an output is made of: every file its entry imports, directly or
// not, including one whose code the bundle drops as unused, since a change
// (a mutant) could make it kept.
const reached = (inputs, entries) => {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file) || inputs[file] === undefined) return;
    seen.add(file);
    for (const i of inputs[file].imports) if (!i.external) visit(i.path);
  };
  for (const entry of entries) visit(entry);
  return [...seen];
};
const reachedBy = (b) =>
  reached(
    b.metafile.inputs,
    Object.values(b.metafile.outputs).map((o) => o.entryPoint),
  );
// Text a define carries, and the files that text is made of: an output whose
// files use the name is made of those files too.
const carried = {
  FRONTMATTER_WORKER: () => reachedBy(worker),
  GSD_CHECK_SOURCE_ID: () => sourceFiles(),
  GSD_CHECK_SCHEMAS: () => reachedBy(generator),
};
const uses = new Map();
const madeOf = (files) => {
  const all = new Set(files);
  for (const [name, from] of Object.entries(carried)) {
    const user = (f) => {
      const key = `${f}\0${name}`;
      if (!uses.has(key)) uses.set(key, !f.startsWith('node_modules/') && readFileSync(f, 'utf8').includes(name));
      return uses.get(key);
    };
    if (files.some(user)) for (const f of from()) all.add(f);
  }
  return [...all].sort();
};

// The program and the launcher minified with the names at their top level
// kept: esbuild's transform, given no output format, takes the top level for
// the global scope and leaves its names alone, so every function declared at
// a module's top level, and every method, keeps the name an internal error's
// stack trace shows (test/launch.test.ts), while the names inside functions
// become short: less text for V8 to read where there is no code cache.
// keepNames would keep those too, at a cost at every start
// (docs/explanation/performance.md). --program-maps builds skip it, so that
// coverage maps back to src/ through one source map.
const keepingTopLevelNames = async (text) =>
  programMaps.sourcemap === undefined
    ? (await transform(text, { minify: true, legalComments: 'none', target: common.target, supported: common.supported })).code
    : text;

// In dist/gsd-check the texts are line comments, one in a function each, and
// the program takes a text from its function's source (Function.prototype.
// toString) when it first reads it: without a code cache (under CI) V8 reads
// the whole program at every start, and skips a comment several times faster
// than it scans a string literal of the same text. Each is JSON, ASCII only
// and without "*/": a line comment ends at any line terminator (U+2028 too),
// and the program sits in a block comment. --program-maps builds keep the
// string literals, so that the program's lines stay where its map says.
const TEXTS = 'gsdCheckTexts';
const asLineComment = (text) =>
  `//${JSON.stringify(text)
    .replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replaceAll('*/', '*\\/')}\n`;
const textsPrelude = () =>
  `var ${TEXTS}=(()=>{const t=f=>{const s=f.toString();return JSON.parse(s.slice(s.indexOf("//")+2,s.lastIndexOf("\\n")))};return{${Object.entries(texts)
    .map(([name, text]) => `get ${name}(){return t(function(){\n${asLineComment(text)}})}`)
    .join(',')}}})();`;
const textDefines = programMaps.sourcemap === undefined ? Object.fromEntries(Object.keys(texts).map((name) => [name, `${TEXTS}.${name}`])) : {};

let distInputs;
if (only === null || only.has('dist/gsd-check')) {
  // The program, kept as text: src/launch.ts compiles it with a code cache.
  const program = await build({
    ...common,
    entryPoints: ['src/main.ts'],
    ...programMaps,
    define: { ...common.define, ...textDefines },
    // CommonJS: an extensionless ESM file is fragile on early Node 20, and a
    // single-executable application wants a CommonJS main.
    format: 'cjs',
    legalComments: 'none',
    // Also drops the /* @__PURE__ */ marks esbuild writes, which would end the
    // comment that holds the program; V8 parses none of it on a cached start.
    minifyWhitespace: true,
    write: false,
  });
  const prelude = programMaps.sourcemap === undefined ? textsPrelude() : '';
  const programText = `(function (exports, require, module, __filename, __dirname) {${prelude}${await keepingTopLevelNames(program.outputFiles[0].text)}\n})`;

  // The program goes in a comment after the launcher, between the markers
  // src/embedded-program.ts looks for; it must not hold the comment's end.
  const PROGRAM_OPEN = '/* gsd-check program\n';
  const PROGRAM_CLOSE = '\n*/\n';
  if (programText.includes('*/')) throw new Error('build: the program contains "*/", which would end the comment that holds it; write it as "*\\/"');
  // A namespace import of a Node module becomes esbuild's __toESM, which copies
  // every export at start-up and so runs Node's lazy getters (node:fs's loads
  // internal/fs/dir) at every start (docs/explanation/performance.md).
  if (/__toESM\(require\("node:/.test(programText)) throw new Error('build: a namespace import of a node: module (import * as x); import the names used');
  // An object or array in `define` becomes a module of its own that every start
  // initialises; the values above are strings, written only where they are used.
  if (programText.includes('init_define_')) throw new Error('build: a define whose value is an object or array is built at every start; define JSON text');
  // One character past ASCII makes the program two bytes a character: the
  // standalone binary, whose program is a string literal in its main script
  // (build-bin.mjs), then reads and compiles that whole script so at every
  // start (docs/explanation/performance.md). esbuild escapes strings, not a
  // regular expression's characters.
  const wide = /[^\0-\x7f]/.exec(programText);
  if (wide !== null)
    throw new Error(
      `build: the program holds ${JSON.stringify(wide[0])} (U+${wide[0].codePointAt(0).toString(16).toUpperCase()}) near ${JSON.stringify(programText.slice(Math.max(0, wide.index - 40), wide.index + 10))}: write it as a \\u escape`,
    );
  const launcher = await build({
    ...common,
    entryPoints: ['src/launch.ts'],
    ...programMaps,
    format: 'cjs',
    // In a package whose package.json says "type": "module", Node runs this
    // extensionless file as an ES module, where `require` is not defined: this
    // line makes one (process.getBuiltinModule: Node 20.16, 22.3) before the
    // launcher's first require. As CommonJS it keeps the module's own.
    banner: {
      js: [
        '#!/usr/bin/env node',
        'var require = typeof require === "function" ? require : typeof process.getBuiltinModule === "function" ? process.getBuiltinModule("node:module").createRequire(process.argv[1]) : function () { throw new Error("gsd-check: this Node runs it as an ES module (a package.json with \\"type\\": \\"module\\") and has no process.getBuiltinModule: use Node 20.16 or later, or name the copy gsd-check.cjs"); };',
      ].join('\n'),
    },
    legalComments: 'none',
    write: false,
    define: {
      ...common.define,
      GSD_CHECK_PROGRAM_LENGTH: String(programText.length),
    },
  });
  writeFileSync('dist/gsd-check', `${await keepingTopLevelNames(launcher.outputFiles[0].text)}${PROGRAM_OPEN}${programText}${PROGRAM_CLOSE}`);
  chmodSync('dist/gsd-check', 0o755);

  // --bundled: the npm packages dist/gsd-check holds, for the release's SBOM.
  if (process.argv.includes('--bundled')) {
    const inputs = [yaml, worker, program, launcher].flatMap((b) => Object.keys(b.metafile.inputs));
    console.log(JSON.stringify([...new Set(inputs.flatMap((i) => /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(i)?.[1] ?? []))].sort()));
  }
  distInputs = madeOf([worker, program, launcher].flatMap(reachedBy));
}

// The GitHub Action's entry (src/action/main.ts), run by the runner's own
// Node beside dist/gsd-check, and its metadata, action.yml at the top of the
// repository, generated from the same lists (committed, checked by CI as
// dist/ is).
let actionInputs;
if (only === null || only.has('dist/action.js')) {
  const action = await build({
    ...common,
    entryPoints: ['src/action/main.ts'],
    ...programMaps,
    format: 'cjs',
    legalComments: 'none',
    outfile: 'dist/action.js',
  });
  actionInputs = madeOf(reachedBy(action));
}
if (only === null) {
  const metadata = await build({ ...common, entryPoints: ['src/action/metadata.ts'], format: 'esm', write: false });
  const { actionYaml } = await import(`data:text/javascript;base64,${Buffer.from(metadata.outputFiles[0].text).toString('base64')}`);
  writeFileSync('action.yml', actionYaml());
}

const testEntries = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? testEntries(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
  );
const testOptions = {
  ...common,
  outbase: 'test',
  outdir: '.test-out',
  format: 'esm',
  outExtension: { '.js': '.mjs' },
  ...programMaps,
  // ESM bundles of CommonJS packages need a require of their own.
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
};

if (only !== null) {
  const known = JSON.parse(readFileSync(INPUTS, 'utf8'));
  const unknown = [...only].filter((out) => !Object.hasOwn(known, out));
  if (unknown.length > 0) throw new Error(`build: --only names outputs ${INPUTS} does not know: ${unknown.join(', ')}`);
  const entryPoints = [...only].filter((out) => !out.startsWith('dist/')).map((out) => known[out].entry);
  if (entryPoints.length > 0) await build({ ...testOptions, entryPoints });
} else if (process.argv.includes('--tests')) {
  rmSync('.test-out', { recursive: true, force: true });
  const tests = await build({ ...testOptions, entryPoints: testEntries('test') });
  const inputs = { 'dist/gsd-check': { inputs: distInputs }, 'dist/action.js': { inputs: actionInputs } };
  for (const [out, { entryPoint }] of Object.entries(tests.metafile.outputs)) {
    inputs[out] = { entry: entryPoint, inputs: madeOf(reached(tests.metafile.inputs, [entryPoint])) };
  }
  writeFileSync(INPUTS, `${JSON.stringify(inputs, null, 1)}\n`);
}
