import { testGateContext } from '../../helpers/deps.ts';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../../helpers/bounded.ts';
import { ok } from '../../../src/failure.ts';
import { parseCapability } from '../../../src/gates/declaration.ts';
import { gatesAt } from '../../../src/gates/sources.ts';
import type { LoopPoint } from '../../../src/gates/activation.ts';
import type { PointGates } from '../../../src/gates/run-point.ts';
import { KINDS } from '../../../src/kinds/table.ts';
import { phaseForGates } from '../../../src/commands/gates-run/phase-selected.ts';
import type { GateContext } from '../../../src/predicate/kind.ts';
import { gsdPaths } from '../../../src/project/shown-path.ts';
import { lookUpPhaseDir } from '../../../src/project/phase.ts';
import { tempDir } from '../../helpers/support.ts';

const context = (phase: Partial<Pick<GateContext, 'phaseNumber' | 'phaseDir' | 'phaseDirLookup' | 'state' | 'projectRoot' | 'paths'>> = {}): GateContext =>
  testGateContext('/p', async () => assert.fail('nothing runs'), phase);

const halt = { blocking: true, onError: 'halt' };
const artifact = { predicate: { kind: 'artifact-frontmatter-equals', artifact: 'SECURITY.md', field: 'threats_open', equals: 0 } };
const command = (text: string) => ({ predicate: { kind: 'command-exit-zero', command: text } });

function points(gates: Record<string, unknown>[], point: LoopPoint = 'ship:pre', config: Record<string, unknown> = {}): PointGates[] {
  const parsed = parseCapability({ id: 'c', config: { 'x.on': { default: false } }, gates }, KINDS);
  assert.ok(parsed.ok);
  const capability = { file: '/p/cap.json', name: 'c', declaration: parsed.value };
  return [{ point, gates: ok(gatesAt(point, [capability], { root: config }).gates) }];
}

const refusal = (first: string): string =>
  `no phase selected: ${first}; give --current-phase (the one STATE.md names), --phase-number or --phase-dir (see gsd-check --help)`;

const messageOf = (result: ReturnType<typeof phaseForGates>): string | undefined => (result.ok ? undefined : result.failure.message);

test('a gate that reads the phase, with none selected, is a usage failure naming the gate, what it reads, and the flags', () => {
  const result = phaseForGates(points([{ point: 'ship:pre', check: artifact, ...halt }]), context());
  assert.equal(result.ok ? undefined : result.failure.reason, 'usage');
  assert.equal(messageOf(result), refusal("ship:pre's gate c#0 looks for SECURITY.md in the phase directory first"));
  assert.equal(
    messageOf(phaseForGates(points([{ point: 'plan:pre', check: { query: 'verify.codebase-drift' }, ...halt }], 'plan:pre'), context())),
    refusal("plan:pre's gate c#0 asks GSD's query verify.codebase-drift of the phase"),
  );
  assert.equal(
    messageOf(phaseForGates(points([{ point: 'ship:pre', check: command('test -d "$PHASE_DIR"'), ...halt }]), context())),
    refusal("ship:pre's gate c#0 runs a command that reads PHASE_DIR"),
  );
});

test('the first such gate is named, and the others counted', () => {
  const two = [
    { point: 'ship:pre', check: command('true'), ...halt },
    { point: 'ship:pre', check: artifact, ...halt },
    { point: 'ship:pre', check: { query: 'q' }, ...halt },
  ];
  assert.equal(
    messageOf(phaseForGates(points(two), context())),
    refusal("ship:pre's gate c#1 looks for SECURITY.md in the phase directory first (and 1 more gate)"),
  );
  assert.equal(
    messageOf(phaseForGates(points([...two, { point: 'ship:pre', check: command('echo ${PHASE_NUMBER}'), ...halt }]), context())),
    refusal("ship:pre's gate c#1 looks for SECURITY.md in the phase directory first (and 2 more gates)"),
  );
});

test('any of --phase-number, --current-phase (a number) or --phase-dir selects one', () => {
  const gates = points([{ point: 'ship:pre', check: artifact, ...halt }]);
  assert.deepEqual(phaseForGates(gates, context({ phaseNumber: '01' })), ok(undefined));
  assert.deepEqual(phaseForGates(gates, context({ phaseDir: '/p/.planning/phases/01-a' })), ok(undefined));
});

test('gates that read no phase run without one: a command that names none, an agentVerdict, an inactive gate, a broken one', () => {
  assert.deepEqual(
    phaseForGates(
      points([
        { point: 'ship:pre', check: command('npm test && echo PHASE_DIRECTORY MY_PHASE_NUMBER'), ...halt },
        { point: 'ship:pre', check: { agentVerdict: { prompt: 'p' } }, ...halt },
        { point: 'ship:pre', check: artifact, when: 'x.on', ...halt },
        { point: 'ship:pre', check: artifact, blocking: 'yes', onError: 'halt' },
      ]),
      context(),
    ),
    ok(undefined),
  );
  // The same gate switched on by the config reads the phase again.
  assert.equal(
    messageOf(phaseForGates(points([{ point: 'ship:pre', check: artifact, when: 'x.on', ...halt }], 'ship:pre', { x: { on: true } }), context())),
    refusal("ship:pre's gate c#0 looks for SECURITY.md in the phase directory first"),
  );
});

test('a point whose gates could not be had is left to the run, which says why', () => {
  assert.deepEqual(
    phaseForGates([{ point: 'ship:pre', gates: { ok: false, failure: { reason: 'usage', message: 'm', issues: [] } } }], context()),
    ok(undefined),
  );
});

test('a phase given by its number with no directory fails, naming the phase and the directories there are, when a gate past discuss:pre reads it', (t) => {
  const root = tempDir(t);
  mkdirSync(join(root, '.planning/phases/04-ship'), { recursive: true });
  mkdirSync(join(root, '.planning/phases/05-docs'));
  const planning = ok({ project: undefined, workstream: undefined });
  const numbered = (phaseNumber: string) =>
    context({ projectRoot: root, paths: gsdPaths(root), phaseNumber, phaseDirLookup: lookUpPhaseDir(root, phaseNumber, planning.value) });
  const missing =
    "--phase-number 7: no directory of .planning/phases is that phase's (whose phase directories are 04-ship, 05-docs); give the number of one, or --phase-dir";
  const artifactGate = points([{ point: 'ship:pre', check: artifact, ...halt }]);
  const result = phaseForGates(artifactGate, numbered('7'));
  assert.deepEqual(result.ok ? undefined : [result.failure.reason, result.failure.message], ['usage', missing]);
  assert.equal(messageOf(phaseForGates(points([{ point: 'plan:pre', check: { query: 'q' }, ...halt }], 'plan:pre'), numbered('7'))), missing);
  assert.equal(messageOf(phaseForGates(points([{ point: 'ship:pre', check: command('echo "$PHASE_NUMBER"'), ...halt }]), numbered('7'))), missing);
  // Its number finds it, padded as GSD names the directory.
  assert.deepEqual(phaseForGates(artifactGate, numbered('4')), ok(undefined));
  // No gate reads the phase: nothing is looked for.
  assert.deepEqual(phaseForGates(points([{ point: 'ship:pre', check: command('npm test'), ...halt }]), numbered('7')), ok(undefined));
  // A phases directory with none in it says so.
  const bare = tempDir(t);
  assert.equal(
    messageOf(
      phaseForGates(
        artifactGate,
        context({ projectRoot: bare, paths: gsdPaths(bare), phaseNumber: '7', phaseDirLookup: lookUpPhaseDir(bare, '7', planning.value) }),
      ),
    ),
    "--phase-number 7: no directory of .planning/phases is that phase's (which has no phase directory); give the number of one, or --phase-dir",
  );
});

test("discuss:pre's gates, --phase-dir and STATE.md's phase read a phase that has no directory yet as GSD's loop does", (t) => {
  const root = tempDir(t);
  const planning = ok({ project: undefined, workstream: undefined });
  const lookup = lookUpPhaseDir(root, '7', planning.value);
  const at = (point: LoopPoint) => points([{ point, check: artifact, ...halt }], point);
  const numbered = context({ projectRoot: root, paths: gsdPaths(root), phaseNumber: '7', phaseDirLookup: lookup });
  // discuss-phase renders discuss:pre before write_context makes the directory.
  assert.deepEqual(phaseForGates(at('discuss:pre'), numbered), ok(undefined));
  assert.notDeepEqual(phaseForGates(at('discuss:post'), numbered), ok(undefined));
  assert.notDeepEqual(phaseForGates([...at('discuss:pre'), ...at('plan:pre')], numbered), ok(undefined));
  // The next phase STATE.md names, before its discussion.
  const fromState: GateContext = {
    ...numbered,
    state: { phase: '7', source: 'frontmatter', status: 'discussing', rawStatus: null, positionLine: null, lastActivity: null },
  };
  assert.deepEqual(phaseForGates(at('ship:pre'), fromState), ok(undefined));
  assert.deepEqual(phaseForGates(at('ship:pre'), context({ projectRoot: root, phaseDir: join(root, '.planning/phases/07-x') })), ok(undefined));
});
