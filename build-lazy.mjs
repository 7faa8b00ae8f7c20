// Modules dist/gsd-check compiles only when a command first calls them.
// Without a code cache (under CI) V8 reads the whole program at every start,
// whatever the command: code only one command runs costs every other one.
// A lazy group is bundled apart into a text (its own modules and what of
// node_modules they use); the rest of src/ it imports stays the program's
// and reaches it as the program's own modules, so no state or type is held
// twice. The program gets, for the group's entry, a stub of the same
// exports, each a function that compiles the text on its first call.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';

const root = process.cwd();
const rel = (path) => relative(root, path).split('\\').join('/');

// Each group: the name its text is defined as, its entry (whose exports are
// all functions), and every module of src/ it holds. No module outside a
// group may import one of its modules but the entry.
const LAZY_GROUPS = [
  {
    // validate's checks of a whole manifest, with GSD 1.14's registry.
    name: 'LAZY_MANIFEST_CHECK',
    entry: 'src/gates/manifest.ts',
    modules: [
      'src/gates/manifest.ts',
      'src/gates/manifest-version.ts',
      'src/gates/manifest-fields.ts',
      'src/gates/feature-body.ts',
      'src/gates/loop-entries.ts',
      'src/gates/config-slice.ts',
      'src/gates/gsd-registry.ts',
    ],
  },
  // --help, help <command>, completion and schema.
  { name: 'LAZY_HELP', entry: 'src/cli/help.ts', modules: ['src/cli/help.ts'] },
  // STATE.md, for --current-phase and --reached.
  { name: 'LAZY_STATE_DOCUMENT', entry: 'src/project/state-document.ts', modules: ['src/project/state-document.ts'] },
  // --reached: where GSD's loop stands.
  { name: 'LAZY_SELECTION', entry: 'src/commands/gates-run/selection.ts', modules: ['src/commands/gates-run/selection.ts', 'src/loop/phase-files.ts', 'src/loop/reached.ts'] },
  // --report: the JUnit file, the annotations, the job summary.
  {
    name: 'LAZY_REPORTS',
    entry: 'src/commands/gates-run/reports.ts',
    modules: ['src/commands/gates-run/reports.ts', 'src/report/junit.ts', 'src/report/github-annotations.ts', 'src/report/job-summary.ts'],
  },
];

// The program's modules a group imports, each as `shared:<path>`, so the stub
// can hand them over.
const sharing = (group, seen) => ({
  name: 'lazy-shared',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, ({ path, resolveDir }) => {
      const file = rel(resolve(resolveDir, path));
      if (group.modules.includes(file) || !file.startsWith('src/')) return undefined;
      seen.add(file);
      return { path: `shared:${file}`, external: true };
    });
  },
});

// Bundles each group: { name, text, exports, shared, build } where `build`
// carries the metafile (the files the text is made of).
export async function lazyGroups(options) {
  return Promise.all(
    LAZY_GROUPS.map(async (group) => {
      // The stub makes every export a function: an entry that exports a value
      // would hand its callers a function in its place.
      const value = /^export\s+(?:const|let|var|class|enum|default)\b/m.exec(readFileSync(group.entry, 'utf8'));
      if (value !== null) throw new Error(`build: ${group.entry} is compiled on first use (build-lazy.mjs), so it may export functions and types only: "${value[0]}"`);
      const seen = new Set();
      const text = await build({ ...options, entryPoints: [group.entry], format: 'cjs', minify: true, legalComments: 'none', write: false, plugins: [sharing(group, seen)] });
      // The entry's exports, read from an ES module build of the same code.
      const shape = await build({ ...options, entryPoints: [group.entry], format: 'esm', write: false, plugins: [sharing(group, new Set())] });
      const exports = Object.values(shape.metafile.outputs)[0].exports;
      return { ...group, text: text.outputFiles[0].text, exports, shared: [...seen].sort(), build: text };
    }),
  );
}

// The program build's plugin: the entry of each group becomes its stub,
// which reads the text by the group's name (a define of the program build);
// a module of a group imported from outside it, but through its entry,
// fails the build.
export function lazyStubs(groups) {
  return {
    name: 'lazy-stubs',
    setup(b) {
      b.onResolve({ filter: /^\.\.?\// }, ({ path, resolveDir, importer, namespace }) => {
        if (namespace === 'lazy') return undefined;
        const file = rel(resolve(resolveDir, path));
        const group = groups.find((g) => g.modules.includes(file));
        if (group === undefined) return undefined;
        if (group.modules.includes(rel(importer))) return undefined;
        if (file !== group.entry) return { errors: [{ text: `${rel(importer)} imports ${file}, which only ${group.entry} may (it is compiled on first use: build-lazy.mjs)` }] };
        return { path: group.name, namespace: 'lazy' };
      });
      b.onLoad({ filter: /.*/, namespace: 'lazy' }, ({ path }) => {
        const group = groups.find((g) => g.name === path);
        const imports = group.shared.map((file, i) => `import * as s${i} from ${JSON.stringify(resolve(root, file))};`);
        const table = group.shared.map((file, i) => `${JSON.stringify(`shared:${file}`)}: s${i}`).join(', ');
        const calls = group.exports.map((name) => `export function ${name}(...args) { return load().${name}(...args); }`);
        const contents = [
          ...imports,
          `const shared = { ${table} };`,
          'let loaded;',
          // The text is the build's own code, fixed when dist/gsd-check was made.
          `function load() { if (loaded === undefined) { const module = { exports: {} }; new Function("module", "exports", "require", ${group.name})(module, module.exports, (id) => (Object.hasOwn(shared, id) ? shared[id] : require(id))); loaded = module.exports; } return loaded; }`,
          ...calls,
        ].join('\n');
        return { contents, loader: 'js', resolveDir: root };
      });
    },
  };
}
