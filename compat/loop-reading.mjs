// A phase's reading by both tools, reduced alike (compat/test/loop-reading
// and loop-generative): whether the phase is ambiguous or has no directory,
// else its first wave whose plans are all summarized (the one --reached
// names) and its verification status (the one /gsd-ship's preflight reads).
import assert from 'node:assert/strict';
import { GSD_CHECK, GSD_TOOLS, NODE, run } from './harness.mjs';

// GSD's answer: find-phase, phase-plan-index, query verification.status.
export async function gsdReads(root, env, phase) {
  const gsd = async (...args) => JSON.parse((await run([NODE, GSD_TOOLS, ...args], { cwd: root, env })).stdout);
  const found = await gsd('find-phase', phase);
  if (found.ambiguous_matches !== undefined) return 'ambiguous';
  if (!found.found) return 'none';
  const index = await run([NODE, GSD_TOOLS, 'phase-plan-index', phase], { cwd: root, env });
  if (index.status !== 0) return 'ambiguous';
  const { plans, waves } = JSON.parse(index.stdout);
  if (plans.length === 0 && index.stdout.includes('"error"')) return 'ambiguous';
  const summarized = new Set(plans.filter((p) => p.has_summary).map((p) => p.id));
  const first = Object.entries(waves)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([, ids]) => ids)
    .find((ids) => ids.every((id) => summarized.has(id)));
  const status = (await gsd('query', 'verification.status', found.directory)).status;
  return `waves:${(first ?? []).join(',')} verification:${status}`;
}

// gsd-check's: a ship run's loop and its preflight row; with `render`, the
// run has GSD render the hooks, and reads the phase through that GSD.
export async function checkReads(root, env, phase, render = false) {
  const whose = render ? ['--render', '--gsd', GSD_TOOLS] : ['--capability', 'cap.json'];
  const args = ['gates', 'run', '--reached', '--ship', '--phase-number', phase, ...whose, '--raw'];
  const result = await run([NODE, GSD_CHECK, ...args], { cwd: root, env });
  if (result.status === 2 && /matches \d+ directories|in a cycle|are one id|is ambiguous/.test(result.stderr)) return 'ambiguous';
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
