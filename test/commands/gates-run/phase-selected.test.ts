import assert from 'node:assert/strict';
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

const context = (phase: Partial<Pick<GateContext, 'phaseNumber' | 'phaseDir'>> = {}): GateContext => ({
  projectRoot: '/p',
  paths: gsdPaths('/p'),
  env: {},
  planning: ok({ project: undefined, workstream: undefined }),
  killAfterMs: 100,
  run: async () => assert.fail('nothing runs'),
  ...phase,
});

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
