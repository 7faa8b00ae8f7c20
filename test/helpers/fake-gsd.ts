// A stand-in for GSD 1.14's gsd-tools, for the tests that run gates run
// through the shipped artefact with GSD deciding (--render): it answers what
// gsd-check asks it (runtime-identity, loop render-hooks, check, capability
// list, verification.status) and records each call, and the environment in
// which no GSD of the machine's can answer.
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import type { TestContext } from './bounded.ts';
import { ENV, tempDir } from './support.ts';

// What the stand-in says: its version (null: older than runtime-identity,
// which it then does not know), each point's active hooks, the points whose
// render fails, and the answer to each query.
export interface FakeGsd {
  readonly version: string | null;
  readonly hooks?: Readonly<Record<string, readonly unknown[]>>;
  readonly failRender?: readonly string[];
  // Points whose hooks it prints padded with blanks to this many bytes.
  readonly padRender?: Readonly<Record<string, number>>;
  readonly answers?: Readonly<Record<string, unknown>>;
  // Its answer to `query verification.status <dir> --raw`; none: it knows no such verb.
  readonly verification?: unknown;
  // Its answer to `capability list --raw`; none: it knows no such verb.
  readonly capabilities?: unknown;
  // The project's capabilities' hooks by id, then point: rendered, as GSD
  // renders them, only for a capability its user consented to (a record in
  // GSD's home for this project and id).
  // What it says beside every point's hooks (`warnings`): capabilities it failed to load.
  readonly renderWarnings?: readonly string[];
  readonly projectHooks?: Readonly<Record<string, Readonly<Record<string, readonly unknown[]>>>>;
  // The project's capabilities it leaves out even with consent (an invalid
  // capability.json, an install its ledger says is unfinished, a check it
  // fails); given, it answers `capability state --raw` with those it loads.
  readonly refuses?: readonly string[];
}

// As gsd-tools.cjs prints them: `loop render-hooks <point> --raw` a JSON
// document (indented), `check <query> <phase> --raw` the query's answer,
// `runtime-identity --raw` which package and version it is.
const FAKE_GSD = `#!/usr/bin/env node
const { appendFileSync, readFileSync, realpathSync } = require('node:fs');
const { join } = require('node:path');
const setup = JSON.parse(readFileSync(join(__dirname, 'fake-gsd.json'), 'utf8'));
const args = process.argv.slice(2);
appendFileSync(join(__dirname, 'calls.log'), args.join(' ') + '\\n');
appendFileSync(join(__dirname, 'homes.log'), (process.env.GSD_HOME || '') + '\\n');
const consented = (id) => {
  try {
    const store = JSON.parse(readFileSync(join(process.env.GSD_HOME || process.env.HOME, '.gsd', 'consent.json'), 'utf8'));
    return Object.values(store.records).some((r) => r.id === id && r.projectRoot === realpathSync(process.cwd()) && r.scope === 'project');
  } catch { return false; }
};
const loads = (id) => consented(id) && !(setup.refuses || []).includes(id);
const [verb, ...rest] = args;
const unknown = () => { process.stderr.write('Unknown command: ' + verb + '\\n'); process.exit(1); };
if (verb === 'runtime-identity' && rest.join(' ') === '--raw') {
  if (setup.version === null) unknown();
  process.stdout.write(JSON.stringify({ packageName: '@opengsd/gsd-core', version: setup.version }) + '\\n');
} else if (verb === 'loop' && rest[0] === 'render-hooks' && rest.length === 3 && rest[2] === '--raw') {
  const point = rest[1];
  if ((setup.failRender || []).includes(point)) { process.stderr.write('Error: cannot render ' + point + '\\n'); process.exit(1); }
  const own = Object.entries(setup.projectHooks || {}).flatMap(([id, hooks]) => (loads(id) ? hooks[point] || [] : []));
  const warned = setup.renderWarnings === undefined ? {} : { warnings: setup.renderWarnings };
  const text = JSON.stringify({ point, activeHooks: [...((setup.hooks || {})[point] || []), ...own], rendered: '', ...warned }, null, 2) + '\\n';
  const pad = (setup.padRender || {})[point];
  process.stdout.write(pad === undefined ? text : ' '.repeat(pad - Buffer.byteLength(text)) + text);
} else if (verb === 'query' && rest[0] === 'verification.status' && rest.length === 3 && rest[2] === '--raw' && setup.verification !== undefined) {
  process.stdout.write(JSON.stringify(setup.verification, null, 2));
} else if (verb === 'capability' && rest.join(' ') === 'list --raw' && setup.capabilities !== undefined) {
  process.stdout.write(JSON.stringify(setup.capabilities, null, 2));
} else if (verb === 'capability' && rest.join(' ') === 'state --raw' && setup.refuses !== undefined) {
  const capabilities = Object.keys(setup.projectHooks || {}).filter(loads).map((id) => ({ id, active: true }));
  process.stdout.write(JSON.stringify({ runtimeConfigDir: '', capabilities }, null, 2));
} else if (verb === 'check' && rest.length === 3 && rest[2] === '--raw') {
  process.stdout.write(JSON.stringify((setup.answers || {})[rest[0]] || { block: false }) + '\\n');
} else unknown();
`;

// The stand-in written as `file` (executable), its setup beside it.
export function installFake(file: string, setup: FakeGsd): string {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, FAKE_GSD);
  chmodSync(file, 0o755);
  writeFileSync(join(dirname(file), 'fake-gsd.json'), JSON.stringify(setup));
  return file;
}

// Each call the stand-in got, in order of arrival (renders run at once, so sorted).
export const callsOf = (file: string): string[] =>
  readFileSync(join(dirname(file), 'calls.log'), 'utf8')
    .trimEnd()
    .split('\n')
    .sort();

// The tests' environment, where no GSD of the machine's can answer: PATH
// without a directory holding gsd_run or gsd-tools (the node that runs the
// tests first, through a link of its own), a home of the test's own, none of
// the agents' home variables, and git kept out of any checkout around the
// temp dir.
const AGENT_VARIABLES = [
  'CLAUDE_CONFIG_DIR',
  'HERMES_HOME',
  'CURSOR_CONFIG_DIR',
  'CODEX_HOME',
  'GEMINI_CONFIG_DIR',
  'COPILOT_CONFIG_DIR',
  'WINDSURF_CONFIG_DIR',
  'AUGMENT_CONFIG_DIR',
  'TRAE_CONFIG_DIR',
  'QWEN_CONFIG_DIR',
  'CODEBUDDY_CONFIG_DIR',
  'CLINE_CONFIG_DIR',
  'GROK_AGENTS_HOME',
  'ANTIGRAVITY_CONFIG_DIR',
  'OPENCODE_CONFIG_DIR',
  'KILO_CONFIG_DIR',
  'XDG_CONFIG_HOME',
  'RUNTIME_DIR',
];
export function gsdFree(t: TestContext, root: string, extra: Record<string, string> = {}): Record<string, string | undefined> {
  const node = tempDir(t, 'gsd-check-node-');
  symlinkSync(process.execPath, join(node, 'node'));
  const home = tempDir(t, 'gsd-check-home-');
  const path = (ENV.PATH ?? '').split(delimiter).filter((dir) => dir !== '' && !['gsd_run', 'gsd-tools'].some((name) => existsSync(join(dir, name))));
  const env: Record<string, string | undefined> = {
    ...ENV,
    HOME: home,
    PATH: [node, ...path].join(delimiter),
    GIT_CEILING_DIRECTORIES: dirname(root),
    ...extra,
  };
  for (const variable of AGENT_VARIABLES) if (!(variable in extra)) delete env[variable];
  return env;
}

// The GSD_HOME of each call the stand-in got ('' where none was set).
export const homesOf = (file: string): string[] =>
  readFileSync(join(dirname(file), 'homes.log'), 'utf8')
    .trimEnd()
    .split('\n');
