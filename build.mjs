// Bundles src/ into the one committed file dist/gsd-check, and, with --tests,
// each test file into .test-out/ so node:test can run them on Node 20 (no TS loader).
import { build } from 'esbuild';
import { chmodSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sourceId } from './build-id.mjs';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));

// The YAML library (js-yaml's dist file, the one GSD vendors), minified into
// a string that src/artifact/yaml.ts compiles on first use, so that it costs
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
  logLevel: 'warning',
});
const { generateSchemas } = await import(`data:text/javascript;base64,${Buffer.from(generator.outputFiles[0].text).toString('base64')}`);
const schemas = generateSchemas();
for (const [name, schema] of Object.entries(schemas)) writeFileSync(`schemas/${name}.schema.json`, `${JSON.stringify(schema, null, 2)}\n`);

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
    GSD_CHECK_VERSION: JSON.stringify(pkg.version),
    GSD_CHECK_SOURCE_ID: JSON.stringify(sourceId()),
    YAML_SOURCE: JSON.stringify(yaml.outputFiles[0].text),
    FRONTMATTER_WORKER: JSON.stringify(worker.outputFiles[0].text),
    // As JSON text, which esbuild writes where it is used: an object would
    // become a module of its own, built at every start.
    GSD_CHECK_SCHEMAS: JSON.stringify(JSON.stringify(schemas)),
    // GSD 1.14's gate declarations (src/gates/builtin.ts) as one compact
    // string: V8 scans a string literal faster than it preparses the same
    // object literal, which every start would pay for.
    GSD_BUILTIN_GATES: JSON.stringify(JSON.stringify(JSON.parse(readFileSync('src/gates/gsd-1.14/capabilities.json', 'utf8')))),
  },
  metafile: true,
  logLevel: 'warning',
};

// The program, kept as text: src/launch.ts compiles it with a code cache.
const program = await build({
  ...common,
  entryPoints: ['src/main.ts'],
  // CommonJS: an extensionless ESM file is fragile on early Node 20, and a
  // single-executable application wants a CommonJS main.
  format: 'cjs',
  legalComments: 'none',
  // Also drops the /* @__PURE__ */ marks esbuild writes, which would end the
  // comment that holds the program; V8 parses none of it on a cached start.
  minifyWhitespace: true,
  write: false,
});
const programText = `(function (exports, require, module, __filename, __dirname) {${program.outputFiles[0].text}\n})`;

// The program goes in a comment after the launcher, between the markers
// src/embedded-program.ts looks for; it must not hold the comment's end.
const PROGRAM_OPEN = '/* gsd-check program\n';
const PROGRAM_CLOSE = '\n*/\n';
if (programText.includes('*/')) throw new Error('build: the program contains "*/", which would end the comment that holds it; write it as "*\\/"');
// A namespace import of a Node module becomes esbuild's __toESM, which copies
// every export at start-up and so runs Node's lazy getters (node:fs's loads
// internal/fs/dir): 3 M instructions of every start on Node 24, 10 M on 20.
// An object or array in `define` becomes a module of its own that every start
// initialises; the values above are strings, written only where they are used.
if (programText.includes('init_define_')) throw new Error('build: a define whose value is an object or array is built at every start; define JSON text');
if (/__toESM\(require\("node:/.test(programText)) throw new Error('build: a namespace import of a node: module (import * as x); import the names used');
const launcher = await build({
  ...common,
  entryPoints: ['src/launch.ts'],
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
writeFileSync('dist/gsd-check', `${launcher.outputFiles[0].text}${PROGRAM_OPEN}${programText}${PROGRAM_CLOSE}`);
chmodSync('dist/gsd-check', 0o755);

// --bundled: the npm packages dist/gsd-check holds, for the release's SBOM.
if (process.argv.includes('--bundled')) {
  const inputs = [yaml, worker, program, launcher].flatMap((b) => Object.keys(b.metafile.inputs));
  console.log(JSON.stringify([...new Set(inputs.flatMap((i) => /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(i)?.[1] ?? []))].sort()));
}

if (process.argv.includes('--tests')) {
  const tests = (dir) =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? tests(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
    );
  rmSync('.test-out', { recursive: true, force: true });
  await build({
    ...common,
    entryPoints: tests('test'),
    outbase: 'test',
    outdir: '.test-out',
    format: 'esm',
    outExtension: { '.js': '.mjs' },
    sourcemap: 'inline',
    // ESM bundles of CommonJS deps (mri) need a require of their own.
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
}
