// --consent through the shipped artefact: the project's capabilities a
// GSD that renders (--render) loads in this run as with its user's consent,
// given in a home of the run's own that GSD is pointed at and that is gone
// when the run ends; each one it does not load, named. The stand-in GSD
// renders a project capability's hooks only where GSD's home holds a
// consent record for the project and the id (helpers/fake-gsd.ts); the hash
// each record binds is GSD's own (compat/test/bundle-hash.test.mjs).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleContentHash } from '../src/gsd/bundle-hash.ts';
import { test, type TestContext } from './helpers/bounded.ts';
import { gsdFree, homesOf, installFake } from './helpers/fake-gsd.ts';
import { project } from './helpers/project.ts';
import { cli } from './helpers/support.ts';

const TOOLS = join('gsd-core', 'bin', 'gsd-tools.cjs');
const gate = (capId: string, command: string) => ({
  capId,
  kind: 'gate',
  check: { predicate: { kind: 'command-exit-zero', command } },
  blocking: true,
  onError: 'halt',
});
const PROJECT_HOOKS = {
  tests: { 'execute:wave:post': [gate('tests', 'false')] },
  audit: { 'execute:wave:post': [gate('audit', 'true')] },
};
const UNCONSENTED = (id: string) =>
  `gsd-check: warning: GSD does not load the project capability ${id} (no consent record of its user on this machine; --consent ${id} gives it for this run): its gates are evaluated nowhere in this run\n`;

// A project with phase 04 and two capabilities of its own, the stand-in at
// the top level; `home` the run's environment, HOME of the test's own.
function setup(t: TestContext) {
  const root = project(t, { '.planning/phases/04-ship': null });
  for (const id of ['tests', 'audit']) {
    mkdirSync(join(root, '.gsd', 'capabilities', id), { recursive: true });
    writeFileSync(join(root, '.gsd', 'capabilities', id, 'capability.json'), JSON.stringify({ id }));
  }
  const fake = installFake(join(root, TOOLS), { version: '1.14.0', projectHooks: PROJECT_HOOKS });
  return { root, fake, env: gsdFree(t, root) };
}

const run = (root: string, env: Record<string, string | undefined>, extra: string[]) =>
  cli(['gates', 'run', '--point', 'execute:wave:post', '--render', '--phase-number', '04', '--pick', 'message', ...extra], { cwd: root, env });

test("--render without --consent: GSD loads none of the project's capabilities, and each is named", async (t) => {
  const { root, fake, env } = setup(t);
  const result = await run(root, env, []);
  assert.deepEqual([result.status, result.stdout, result.stderr], [0, 'execute:wave:post: no gates\n', UNCONSENTED('audit') + UNCONSENTED('tests')]);
  assert.ok(
    homesOf(fake).every((home) => home === ''),
    'GSD was pointed at a home of the run when nothing was consented to',
  );
});

test('--consent tests: GSD renders its failing gate, the other is named, and the run leaves no home behind', async (t) => {
  const { root, fake, env } = setup(t);
  const result = await run(root, env, ['--consent', 'tests', '--exit-code']);
  assert.deepEqual(
    [result.status, result.stdout, result.stderr],
    [1, 'execute:wave:post: halted by tests#0 (tests#0: command exited 1)\n', UNCONSENTED('audit')],
  );
  const homes = new Set(homesOf(fake));
  assert.equal(homes.size, 1, 'every request went to one home');
  const [home] = homes;
  assert.ok(home !== undefined && home !== '' && !existsSync(home), `the run's home ${home} is still there`);
});

test("--consent '*': every capability of the project's, and nothing named", async (t) => {
  const { root, env } = setup(t);
  const result = await run(root, env, ['--consent', '*']);
  assert.deepEqual([result.status, result.stdout, result.stderr], [0, 'execute:wave:post: halted by tests#0 (tests#0: command exited 1)\n', '']);
});

test("the user's own consent records for the project are kept beside --consent's, and one whose hash is the folder's names nothing", async (t) => {
  const { root, env } = setup(t);
  const hash = bundleContentHash(join(root, '.gsd', 'capabilities', 'audit'));
  assert.ok(hash.ok);
  const record = {
    projectRoot: realpathSync(root),
    id: 'audit',
    scope: 'project',
    integrity: '',
    disclosureSignature: '',
    contentHash: hash.value,
    consentedAt: 'then',
  };
  mkdirSync(join(env.HOME!, '.gsd'));
  writeFileSync(join(env.HOME!, '.gsd', 'consent.json'), JSON.stringify({ version: '1', records: { a: record } }));
  // audit's gate passes, and is now rendered: one more gate, still halted by tests'.
  const result = await cli(
    ['gates', 'run', '--point', 'execute:wave:post', '--render', '--phase-number', '04', '--consent', 'tests', '--raw', '--pick', 'details.gates'],
    {
      cwd: root,
      env,
    },
  );
  assert.deepEqual([result.status, result.stderr], [0, '']);
  assert.deepEqual(
    (JSON.parse(result.stdout) as { capability: string; status: string }[]).map((g) => [g.capability, g.status]),
    [
      ['tests', 'halt'],
      ['audit', 'pass'],
    ],
  );
  // A record bound to other contents is no consent: GSD loads it no more.
  writeFileSync(join(env.HOME!, '.gsd', 'consent.json'), JSON.stringify({ version: '1', records: { a: { ...record, contentHash: 'sha512-other' } } }));
  const stale = await run(root, env, ['--consent', 'tests']);
  assert.deepEqual([stale.status, stale.stderr], [0, UNCONSENTED('audit')]);
});

test('--consent of a capability the project does not have: one line naming those it has, exit 2, GSD never asked', async (t) => {
  const { root, fake, env } = setup(t);
  const result = await run(root, env, ['--consent', 'tests', '--consent', 'release']);
  assert.deepEqual(
    [result.status, result.stdout, result.stderr],
    [2, '', 'gsd-check: --consent release: the project has no such capability in .gsd/capabilities/ (which holds audit, tests)\n'],
  );
  assert.equal(existsSync(join(fake, '..', 'calls.log')), false);
});

test('a capability --consent gives that GSD still leaves out (by its `capability state`) is named, not passed over in silence', async (t) => {
  const { root, fake, env } = setup(t);
  installFake(fake, { version: '1.14.0', projectHooks: PROJECT_HOOKS, refuses: ['tests'] });
  const result = await run(root, env, ['--consent', '*', '--exit-code']);
  assert.deepEqual(
    [result.status, result.stdout, result.stderr],
    [
      0,
      'execute:wave:post: passed (1 pass)\n',
      `gsd-check: warning: GSD does not load the project capability tests though --consent gives it (GSD leaves it out: an unreadable or invalid capability.json, an install the project's ledger says is unfinished, or a check of GSD's it fails): its gates are evaluated nowhere in this run\n`,
    ],
  );
});

test('a capability no consent can make GSD load is named with why, not with --consent as its remedy', async (t) => {
  const { root, env } = setup(t);
  symlinkSync('capability.json', join(root, '.gsd', 'capabilities', 'audit', 'link'));
  const result = await run(root, env, ['--consent', 'tests']);
  assert.deepEqual(
    [result.status, result.stdout, result.stderr],
    [
      0,
      'execute:wave:post: halted by tests#0 (tests#0: command exited 1)\n',
      'gsd-check: warning: GSD does not load the project capability audit (no consent record of its user on this machine; GSD cannot bind a consent record to it: link is a symbolic link): its gates are evaluated nowhere in this run\n',
    ],
  );
});
