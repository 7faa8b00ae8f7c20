// Phases laid out by GSD 1.14's own commands (a project code, a phase added
// and one inserted), with what GSD's workflows then write into them (a
// correction report beside the phase's own, a second plan that names its
// dependency by number, a superseded plan): at each step gsd-check's
// --reached reads the phase as GSD does, with its own reading (--builtin)
// and with GSD's (--render), and the two give the same points.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { environment, GSD_TOOLS, NODE } from '../harness.mjs';
import { checkReached } from '../loop-workflows.mjs';

const TIMEOUT_MS = 60_000;

test("phases GSD's own commands lay out, read alike by gsd-check's reading and GSD's", { timeout: 600_000 }, (t) => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'gsd-compat-layouts-')));
  t.after(() => rmSync(base, { recursive: true, force: true }));
  const root = join(base, 'project');
  mkdirSync(join(root, '.planning'), { recursive: true });
  mkdirSync(join(base, 'home'));
  const env = { ...environment(join(base, 'home'), { GIT_CEILING_DIRECTORIES: base }), PATH: `${dirname(NODE)}:${process.env.PATH}` };
  const gsd = (...args) => {
    const r = spawnSync(NODE, [GSD_TOOLS, ...args], { cwd: root, env, encoding: 'utf8', timeout: TIMEOUT_MS });
    assert.equal(r.status, 0, `gsd-tools ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const write = (path, text) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  spawnSync('git', ['init', '-q'], { cwd: root, env });
  write('.planning/ROADMAP.md', '# Roadmap\n\n## Phases\n\n### Phase 1: Setup\n\n**Goal:** set up\n');
  write('.planning/STATE.md', '---\ncurrent_phase: 1\n---\n# Project State\n');
  gsd('config-set', 'project_code', 'CK');
  gsd('phase', 'add', 'Ship the page');
  gsd('phase', 'insert', '1', 'Hotfix');
  const reached = (phase, ...whose) => checkReached({ root, env }, phase, whose).reached;
  const both = (phase) => {
    const own = reached(phase, '--builtin');
    assert.deepEqual(reached(phase, '--render', '--gsd', GSD_TOOLS), own, `phase ${phase}: gsd-check's reading against GSD's`);
    return own;
  };
  const plan = (fields = '') => `---\nphase: 02\n${fields}---\n# Plan\n`;
  const phase2 = '.planning/phases/CK-02-ship-the-page';
  write(`${phase2}/02-01-PLAN.md`, plan());
  write(`${phase2}/02-02-PLAN.md`, plan('depends_on: ["01"]\n'));
  write(`${phase2}/02-03-PLAN.md`, plan('status: Superseded\n'));
  assert.deepEqual(both('2'), ['plan:pre', 'plan:post']);
  write(`${phase2}/02-01-SUMMARY.md`, '---\nstatus: complete\n---\n');
  assert.deepEqual(both('2'), ['plan:pre', 'plan:post', 'execute:wave:post']);
  write(`${phase2}/02-02-SUMMARY.md`, '---\nstatus: complete\n---\n');
  assert.deepEqual(both('2'), ['plan:pre', 'plan:post', 'execute:wave:post', 'execute:post']);
  // A correction report sorts before the phase's own: the phase's own counts.
  write(`${phase2}/02-CORRECTION-VERIFICATION.md`, '# worksheet\n');
  write(`${phase2}/02-VERIFICATION.md`, '---\nphase: 02\nstatus: passed\n---\n');
  assert.deepEqual(both('CK-02'), ['plan:pre', 'plan:post', 'execute:wave:post', 'execute:post']);
  // The inserted phase, by its decimal id.
  write('.planning/phases/CK-01.1-hotfix/01.1-01-PLAN.md', plan());
  assert.deepEqual(both('1.1'), ['plan:pre', 'plan:post']);
});
