// compat/cases/loop.mjs: a phase's files as GSD 1.14 reads them and as
// --reached and --ship's preflight read them, case by case.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { LOOP_CASES } from '../cases/loop.mjs';
import { environment, GSD_CHECK, GSD_TOOLS, NODE, run, writeTree } from '../harness.mjs';

// GSD's answer, reduced: which directories find-phase names, then the plans
// of phase-plan-index's waves that are all summarized, and the status.
async function gsdReads(root, env, phase) {
  const gsd = async (...args) => JSON.parse((await run([NODE, GSD_TOOLS, ...args], { cwd: root, env })).stdout);
  const found = await gsd('find-phase', phase);
  if (found.ambiguous_matches !== undefined) return 'ambiguous';
  if (!found.found) return 'none';
  const index = await run([NODE, GSD_TOOLS, 'phase-plan-index', phase], { cwd: root, env });
  if (index.status !== 0) return 'ambiguous';
  const { plans, waves } = JSON.parse(index.stdout);
  if (plans.length === 0 && index.stdout.includes('"error"')) return 'ambiguous';
  const summarized = new Set(plans.filter((p) => p.has_summary).map((p) => p.id));
  const done = Object.values(waves).filter((ids) => ids.every((id) => summarized.has(id))).flat();
  const status = (await gsd('query', 'verification.status', found.directory)).status;
  return `waves:${done.join(',')} verification:${status}`;
}

// gsd-check's: a ship run's loop and its preflight row; with `render`, the
// run has GSD render the hooks, and reads the phase through that GSD.
async function checkReads(root, env, phase, render = false) {
  const whose = render ? ['--render', '--gsd', GSD_TOOLS] : ['--capability', 'cap.json'];
  const args = ['gates', 'run', '--reached', '--ship', '--phase-number', phase, ...whose, '--raw'];
  const result = await run([NODE, GSD_CHECK, ...args], { cwd: root, env });
  if (result.status === 2 && /matches \d+ directories|in a cycle|are one id/.test(result.stderr)) return 'ambiguous';
  if (result.status === 2 && result.stderr.includes('no directory of')) return 'none';
  assert.equal(result.stderr, '', `${args.join(' ')}: exit ${result.status}`);
  assert.ok(result.status === 0 || result.status === 1, `${args.join(' ')}: exit ${result.status}`);
  const envelope = JSON.parse(result.stdout);
  const wave = envelope.details.loop.points.find((p) => p.point === 'execute:wave:post');
  const done = wave.reached && wave.why.startsWith('every plan of wave') ? /\((.*)\)$/.exec(wave.why)[1].split(', ') : [];
  const ship = envelope.details.points.find((p) => p.point === 'ship:pre');
  const preflight = ship.gates.find((g) => g.capability === 'ship-preflight');
  return `waves:${done.join(',')} verification:${preflight.envelope.details.status}`;
}

for (const c of LOOP_CASES) {
  test(`${c.name}${c.differs === undefined ? '' : ` (${c.differs})`}`, { timeout: 60_000 }, async (t) => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), 'gsd-compat-reading-')));
    t.after(() => rmSync(base, { recursive: true, force: true }));
    const root = join(base, 'project');
    mkdirSync(join(base, 'home'));
    writeTree(root, { '.planning/STATE.md': '# Project State\n', 'cap.json': '{"id":"c","gates":[]}\n' });
    writeTree(join(root, '.planning/phases'), c.files);
    if (c.later !== undefined) {
      const later = new Date(Date.now() + 60_000);
      utimesSync(join(root, '.planning/phases', c.later), later, later);
    }
    const env = environment(join(base, 'home'), {});
    // Only the first done wave is named by --reached; the cases have one.
    assert.equal(await gsdReads(root, env, c.phase), c.gsd, 'GSD 1.14');
    assert.equal(await checkReads(root, env, c.phase), c.check ?? c.gsd, 'gsd-check');
    // With GSD at hand, its own reading, a difference of gsd-check's own reading included.
    assert.equal(await checkReads(root, { ...env, PATH: `${dirname(NODE)}:${env.PATH}` }, c.phase, true), c.gsd, 'gsd-check --render');
  });
}
