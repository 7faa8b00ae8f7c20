import { testGateContext } from '../../helpers/deps.ts';
import assert from 'node:assert/strict';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../../helpers/bounded.ts';
import { project } from '../../helpers/project.ts';
import { builtinLeavesOut, leftOutLine } from '../../../src/commands/gates-run/left-out.ts';
import type { GateContext } from '../../../src/predicate/kind.ts';

const context = (projectRoot: string, env: Record<string, string> = {}): GateContext =>
  testGateContext(projectRoot, async () => assert.fail('nothing runs'), { env });
const manifest = { id: 'x' };

test("--builtin in a project with installed capabilities names them, GSD's home's marked, and points to --render", (t) => {
  const root = project(t, { '.planning': null, '.gsd/capabilities/acme/capability.json': manifest, 'home/.gsd/capabilities/shared/capability.json': manifest });
  assert.equal(
    builtinLeavesOut(context(root), join(root, 'home'), [], ['ship:pre']),
    "--builtin leaves out the 2 capabilities installed in .gsd/capabilities/: shared (GSD's home), acme; --render evaluates what GSD loads, --capability adds one",
  );
  // GSD_HOME is GSD's home over the user's.
  assert.equal(
    builtinLeavesOut(context(root, { GSD_HOME: join(root, 'elsewhere') }), join(root, 'home'), [], ['ship:pre']),
    '--builtin leaves out the capability installed in .gsd/capabilities/: acme; --render evaluates what GSD loads, --capability adds one',
  );
});

test("by name, GSD's home first; five are named, past five the rest are counted", (t) => {
  const leftOut = (ids: string[], global: string[] = []) => {
    const tree = Object.fromEntries([
      ...ids.map((id) => [`.gsd/capabilities/${id}/capability.json`, manifest]),
      ...global.map((id) => [`home/.gsd/capabilities/${id}/capability.json`, manifest]),
    ]);
    const root = project(t, { '.planning': null, ...tree });
    return builtinLeavesOut(context(root), join(root, 'home'), [], ['ship:pre']);
  };
  const tail = '; --render evaluates what GSD loads, --capability adds one';
  // Made in reverse, so that a listing in creation order is not sorted already.
  assert.equal(leftOut(['e', 'd', 'c', 'b', 'a']), `--builtin leaves out the 5 capabilities installed in .gsd/capabilities/: a, b, c, d, e${tail}`);
  assert.equal(
    leftOut(['g', 'f', 'e', 'd', 'c', 'b', 'a']),
    `--builtin leaves out the 7 capabilities installed in .gsd/capabilities/: a, b, c, d, e and 2 more${tail}`,
  );
  assert.equal(
    leftOut(['b', 'a'], ['z', 'y']),
    `--builtin leaves out the 4 capabilities installed in .gsd/capabilities/: y (GSD's home), z (GSD's home), a, b${tail}`,
  );
  // Whatever order they come in (a file system lists a directory in its own order).
  const given = [
    ['project', 'b'],
    ['global', 'z'],
    ['project', 'a'],
    ['global', 'y'],
  ] as const;
  assert.equal(
    leftOutLine(given.map(([scope, id]) => ({ scope, id, path: `/x/${id}/capability.json` }))),
    `--builtin leaves out the 4 capabilities installed in .gsd/capabilities/: y (GSD's home), z (GSD's home), a, b${tail}`,
  );
});

test('nothing to say with nothing installed, or with each one given by --capability, by whatever path', (t) => {
  assert.equal(builtinLeavesOut(context(project(t, { '.planning': null })), undefined, [], ['ship:pre']), undefined);
  const root = project(t, { '.planning': null, '.gsd/capabilities/acme/capability.json': manifest, '.gsd/capabilities/beta/capability.json': manifest });
  symlinkSync(join(root, '.gsd'), join(root, 'gsd-link'));
  assert.equal(
    builtinLeavesOut(context(root), undefined, [join(root, 'gsd-link/capabilities/acme/capability.json')], ['ship:pre']),
    '--builtin leaves out the capability installed in .gsd/capabilities/: beta; --render evaluates what GSD loads, --capability adds one',
  );
  assert.equal(
    builtinLeavesOut(
      context(root),
      undefined,
      [join(root, '.gsd/capabilities/beta/capability.json'), join(root, 'gsd-link/capabilities/acme/capability.json')],
      ['ship:pre'],
    ),
    undefined,
  );
  // The project's .gsd a link itself: the file installed and the file given meet at their real path.
  const linked = project(t, { '.planning': null, 'kept/capabilities/acme/capability.json': manifest });
  symlinkSync(join(linked, 'kept'), join(linked, '.gsd'));
  assert.equal(builtinLeavesOut(context(linked), undefined, [join(linked, 'kept/capabilities/acme/capability.json')], ['ship:pre']), undefined);
});

test("a folder with no capability.json (GSD's .staging) is none, and one whose gates are all at points the run does not evaluate leaves nothing out", (t) => {
  const root = project(t, {
    '.planning': null,
    '.gsd/capabilities/.staging/x': 'partial install',
    '.gsd/capabilities/later/capability.json': { id: 'later', gates: [{ point: 'verify:pre', check: { query: 'q' } }] },
    '.gsd/capabilities/broken/capability.json': '{ not json',
  });
  assert.equal(
    builtinLeavesOut(context(root), undefined, [], ['ship:pre']),
    '--builtin leaves out the capability installed in .gsd/capabilities/: broken; --render evaluates what GSD loads, --capability adds one',
  );
  assert.equal(
    builtinLeavesOut(context(root), undefined, [], ['verify:pre']),
    '--builtin leaves out the 2 capabilities installed in .gsd/capabilities/: broken, later; --render evaluates what GSD loads, --capability adds one',
  );
});
