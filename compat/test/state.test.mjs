import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { STATE_CASES } from '../cases/state.mjs';
import { TEMPLATE_BODY, stateFileCase } from '../generative/arbitraries.mjs';
import { classify } from '../generative/classify.mjs';
import { differs, runCase } from '../generative/run-case.mjs';
import { GSD_TOOLS, NODE, documentedDifferences, environment } from '../harness.mjs';

const documented = documentedDifferences();

// STATE.md as GSD's commands leave it: its template's body, then each
// command, in a project whose roadmap has two phases and whose first is
// executed and verified (what `phase complete 1` asks for).
function writtenByGsd(commands) {
  const root = mkdtempSync(join(tmpdir(), 'gsd-state-'));
  try {
    const files = {
      '.planning/config.json': '{}',
      '.planning/STATE.md': TEMPLATE_BODY,
      '.planning/ROADMAP.md':
        '# Roadmap\n\n## Phases\n\n- [ ] **Phase 1: Setup**\n- [ ] **Phase 2: Tasks**\n\n### Phase 1: Setup\n**Goal**: set up\n**Plans**: 1 plan\n\n### Phase 2: Tasks\n**Goal**: tasks\n**Plans**: 1 plan\n',
      '.planning/phases/01-setup/01-01-PLAN.md': '---\nphase: 01\nplan: 01\n---\n# Plan\n',
      '.planning/phases/01-setup/01-01-SUMMARY.md': '---\nphase: 01\nplan: 01\n---\n# Summary\n',
      '.planning/phases/01-setup/01-VERIFICATION.md': '---\nphase: 01\nstatus: passed\n---\n# Verification\n',
      '.planning/phases/02-tasks/README.md': '# 02\n',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    for (const command of commands) {
      const run = spawnSync(NODE, [GSD_TOOLS, ...command], { cwd: root, env: environment(join(root, 'home'), {}), encoding: 'utf8', timeout: 60_000 });
      assert.equal(run.status, 0, `gsd-tools ${command.join(' ')}: ${run.stderr}`);
    }
    return readFileSync(join(root, '.planning', 'STATE.md'), 'utf8');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

for (const c of STATE_CASES) {
  test(c.differs === undefined ? c.name : `${c.name} [${c.differs}]`, async () => {
    const text = c.written === undefined ? c.text : writtenByGsd(c.written);
    const generated = stateFileCase(text, c.special);
    const { gsd, check } = await runCase(generated);
    const context = `\n  STATE.md: ${JSON.stringify(text.slice(0, 300))}\n  gsd-tools: exit ${gsd.status}, ${JSON.stringify(gsd.stdout.slice(0, 200))}\n  gsd-check: exit ${check.status}, ${JSON.stringify(check.stderr.slice(0, 300))}`;
    assert.equal(gsd.verdict, c.gsd, `the real GSD answered ${gsd.verdict}, the case says ${c.gsd}${context}`);
    if (c.differs === undefined) {
      assert.equal(check.verdict, gsd.verdict, `gsd-check answered ${check.verdict}${context}`);
    } else {
      assert.ok(documented.has(c.differs), `${c.differs} is not a heading of docs/reference/differences.md`);
      assert.equal(check.verdict, c.check, `gsd-check answered ${check.verdict}, the case (${c.differs}) says ${c.check}${context}`);
      assert.ok(differs(generated, gsd, check));
      assert.equal(classify(generated, gsd, check)?.id, c.differs, `not classified as ${c.differs}${context}`);
    }
  });
}
