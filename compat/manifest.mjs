// Capability manifests through both tools: GSD 1.14's own loader
// (capability-loader.cjs's loadRegistry, which validates each installed
// manifest with capability-validator.cjs and re-gates it) and gsd-check's
// `validate --json`, on the same files at GSD's layout. A manifest is
// installed in GSD's home (GSD_HOME), where GSD needs no consent to load it,
// beside a project that has none of its own, so what decides is the
// manifest alone; `scope: 'project'` installs it in a project (with
// .planning/) instead, `beside` puts other files in its folder, and
// `others` other capabilities beside it ([{ folder, text }]), which GSD
// loads with it and gsd-check does not read.
import { isUtf8 } from 'node:buffer';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { GSD_CHECK, GSD_TOOLS, NODE, REPO, environment, run } from './harness.mjs';

const LIB = join(dirname(GSD_TOOLS), 'lib');

// Run by the pinned Node 24: for each {folder, home} on stdin, load the
// registry with that home, and tell whether the capability joined it, why
// not (the loader's warning), and what validateCapability alone says.
const GSD_SIDE = `
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const lib = process.argv[1];
const { loadRegistry } = require(join(lib, 'capability-loader.cjs'));
const validator = require(join(lib, 'capability-validator.cjs'));
const cases = JSON.parse(readFileSync(0, 'utf8'));
const out = cases.map(({ folder, home, cwd, path }) => {
  let registry;
  try {
    registry = loadRegistry({ includeInstalled: true, cwd, gsdHome: home });
  } catch (e) {
    return { loaded: false, warnings: ['loadRegistry threw: ' + (e && e.message)], validatorErrors: null };
  }
  const warnings = (registry._overlay?.warnings ?? []).filter((w) => w.id === folder || w.id === '*').map((w) => w.reason);
  let validatorErrors = null;
  try {
    validatorErrors = validator.validateCapability(JSON.parse(readFileSync(path, 'utf8')), folder);
  } catch (e) {
    validatorErrors = ['threw: ' + (e && e.message)];
  }
  return { loaded: warnings.length === 0 && Object.hasOwn(registry.capabilities, folder), warnings, validatorErrors };
});
process.stdout.write(JSON.stringify(out));
`;

// `cases`: [{ folder, text }], the manifest's folder name and its text (or
// bytes, a Buffer). Each
// answer: { gsd: { loaded, warnings, validatorErrors }, check: the file's
// entry of validate --json ({ valid, gates, gsdLoads, issues }), status }.
export async function loadBoth(cases, { timeoutMs = 300_000 } = {}) {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'gsd-compat-manifest-')));
  try {
    const placed = cases.map((c, index) => {
      const home = join(base, `home-${index}`);
      const cwd = join(base, `project-${index}`);
      mkdirSync(home);
      mkdirSync(join(cwd, '.planning'), { recursive: true });
      const path = join(c.scope === 'project' ? cwd : home, '.gsd', 'capabilities', c.folder, 'capability.json');
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, c.text);
      for (const other of c.others ?? []) {
        const at = join(dirname(dirname(path)), other.folder, 'capability.json');
        mkdirSync(dirname(at), { recursive: true });
        writeFileSync(at, other.text);
      }
      for (const [name, text] of Object.entries(c.beside ?? {})) {
        mkdirSync(dirname(join(dirname(path), name)), { recursive: true });
        writeFileSync(join(dirname(path), name), text);
      }
      return { folder: c.folder, home, cwd, path };
    });
    const cwd = base;
    const env = environment(join(base, 'home'), {});
    const gsd = await runWithInput([NODE, '-e', GSD_SIDE, LIB], JSON.stringify(placed), { cwd, env, timeoutMs });
    if (gsd.status !== 0) throw new Error(`the GSD side failed (exit ${gsd.status}): ${gsd.stderr.slice(0, 2000)}`);
    const loaded = JSON.parse(gsd.stdout);
    const check = await run([NODE, GSD_CHECK, 'validate', '--json', ...placed.map((p) => p.path)], { cwd, env, timeoutMs });
    // A file gsd-check cannot read fails the whole call: given alone, that is its answer.
    if (check.status === 2 && cases.length === 1) return [{ ...cases[0], gsd: loaded[0], check: { status: 2, stderr: check.stderr } }];
    if (check.status !== 0 && check.status !== 1) throw new Error(`gsd-check validate failed (exit ${check.status}): ${check.stderr.slice(0, 2000)}`);
    const files = JSON.parse(check.stdout).files;
    return cases.map((c, index) => ({ ...c, gsd: loaded[index], check: { status: check.status, ...files[index] } }));
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

function runWithInput(argv, input, options) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(argv[0], argv.slice(1), { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s) => (stderr += s));
    // A bound so that a hung tool fails the run instead of the whole suite.
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (status) => {
      clearTimeout(timer);
      resolvePromise({ status, stdout, stderr });
    });
    child.stdin.end(input);
  });
}

// What gsd-check's answer makes of a case: `loads` as GSD would, and whether
// it flags the file (exit 1 for it).
const agrees = ({ gsd, check }) => check.status !== 2 && check.gsdLoads === gsd.loaded && !check.valid === !gsd.loaded;

// The loader's reasons for skipping a capability that turn on more than the
// manifest and GSD's own registry: the capabilities installed beside it
// (what no capability provides), a file beside it, the user's consent.
// Everything else it says is the manifest's, or GSD's registry's, which
// gsd-check checks.
// A name another capability could have: a kebab-case id (GSD loads no
// other), none of GSD's own (it keeps them), not the case's own; any
// artifact name (a step may produce any string, "" too).
const GSD_OWN = new Set(Object.keys(JSON.parse(readFileSync(join(REPO, 'src', 'gates', 'gsd-1.14', 'registry.json'), 'utf8')).capabilities));
const another = (name, c) => /^[a-z][a-z0-9-]*$/.test(name) && !GSD_OWN.has(name) && name !== c.folder;
const BEYOND = [
  [/^capability "[^"]+" requires "([^"]*)" which does not exist$/, another],
  [/^capability "[^"]+" runtimeCompat\.(?:supported|unsupported|notes) references unknown runtime "([^"]*)"$/, another],
  [/^capability "[^"]+" step at point "[^"]+" consumes "([^"]*)" which is (?:never produced|only produced)/, () => true],
];
function beyondTheManifest(warning, c) {
  const cross = /^cross-capability validation failed: (.*)$/s.exec(warning);
  if (cross !== null) return cross[1].split('; ').every((error) => BEYOND.some(([re, could]) => re.test(error) && could(re.exec(error)[1], c)));
  return /^(?:invalid hook fragment: [^;]*could not be read|discovered — no user consent)/.test(warning);
}

// One classifier per documented difference a manifest can show, each from
// the case and the shape of both answers.
export const MANIFEST_CLASSIFIERS = [
  {
    id: 'D15',
    name: 'a key given twice: flagged, though GSD loads it with the last value',
    test: (c, { gsd, check }) =>
      gsd.loaded && check.gsdLoads === true && check.issues.some((i) => i.message.startsWith('is given twice')) && check.issues.every((i) => !i.gsdRefuses),
  },
  {
    id: 'D67',
    name: "a runtime's or reviewer's body, not checked",
    test: (c, { check }) => check.gsdLoads === null && ['runtime', 'reviewer'].includes(roleOf(c)) && check.issues.every((i) => !i.gsdRefuses),
  },
  {
    id: 'D68',
    name: 'skipped for what turns on more than the manifest',
    test: (c, { gsd, check }) => !gsd.loaded && check.gsdLoads === true && gsd.warnings.length > 0 && gsd.warnings.every((w) => beyondTheManifest(w, c)),
  },
  {
    id: 'D69',
    name: "gsd-check's own rules for a gate GSD loads past",
    test: (c, { gsd, check }) =>
      gsd.loaded && check.gsdLoads === true && !check.valid && check.issues.every((i) => !i.gsdRefuses && i.path.startsWith('gates[')),
  },
  {
    id: 'D70',
    name: 'a file over 1 MiB, which gsd-check does not read',
    test: (c, { check }) => check.status === 2 && Buffer.byteLength(c.text) > 1024 * 1024,
  },
  {
    id: 'D71',
    name: 'a file that is not UTF-8, which gsd-check does not read',
    test: (c, { check }) => check.status === 2 && typeof c.text !== 'string' && !isUtf8(c.text),
  },
];

function roleOf(c) {
  try {
    return JSON.parse(c.text).role;
  } catch {
    return undefined;
  }
}

// `same`, or the id of the documented difference it shows, or undefined.
export function judgeManifest(answer) {
  if (agrees(answer)) return 'same';
  return MANIFEST_CLASSIFIERS.find((k) => k.test(answer, answer))?.id;
}
