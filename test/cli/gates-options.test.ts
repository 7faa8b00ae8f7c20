import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { parseCommandLine } from '../../src/cli/command-line.ts';
import { LOOP_POINTS } from '../../src/gates/activation.ts';
import { usage } from '../helpers/command-line.ts';
import { requestedReports } from '../../src/cli/gates-options.ts';

test('junit=<file> and github, in the order given', () => {
  assert.deepEqual(requestedReports(['github', 'junit=out/a=b.xml']), { ok: true, value: [{ format: 'github' }, { format: 'junit', file: 'out/a=b.xml' }] });
  assert.deepEqual(requestedReports([]), { ok: true, value: [] });
});

test('anything else is a usage error naming the value', () => {
  const message = (values: string[]) => {
    const result = requestedReports(values);
    assert.ok(!result.ok);
    return [result.failure.reason, result.failure.message.replace(/ \(see gsd-check --help\)$/, '')];
  };
  assert.deepEqual(message(['junit']), ['usage', '--report junit needs a file: --report junit=<file>']);
  assert.deepEqual(message(['junit=']), ['usage', '--report junit needs a file: --report junit=<file>']);
  assert.deepEqual(message(['xml']), ['usage', '--report "xml" is not a report; one of: junit=<file>, github']);
  assert.deepEqual(message(['github=x']), ['usage', '--report "github=x" is not a report; one of: junit=<file>, github']);
  assert.deepEqual(message(['junit=a', 'junit=b']), ['usage', '--report junit is given more than once']);
  assert.deepEqual(message(['github', 'github']), ['usage', '--report github is given more than once']);
});

test('gates run: point, capabilities (repeatable), config, concurrency and the shared flags', () => {
  const result = parseCommandLine([
    'gates',
    'run',
    '--point',
    'ship:pre',
    '--capability',
    'a.json',
    '--capability=b.json',
    '--config',
    'c.json',
    '--concurrency',
    '3',
    '--phase-dir',
    'p',
    '--raw',
    '--exit-code',
  ]);
  assert.ok(result.ok);
  assert.deepEqual(result.value, {
    action: 'gates-run',
    options: {
      points: ['ship:pre'],
      printed: 'point',
      capabilities: ['a.json', 'b.json'],
      consent: [],
      builtin: false,
      render: false,
      reached: false,
      ship: false,
      requireTestedGsd: false,
      config: 'c.json',
      concurrency: 3,
      phaseDir: 'p',
      queryTimeout: 30,
      reports: [],
      currentPhase: false,
      killAfter: 3,
      raw: true,
      exitCode: true,
      jsonErrors: false,
    },
  });
  const gates = (argv: string[]) => usage(['gates', 'run', ...argv]);
  assert.equal(gates(['--capability', 'a.json']), '--point (once per loop point), --all-points or --reached is required');
  assert.match(gates(['--point', 'ship', '--capability', 'a.json']), /^--point "ship" is not a loop point; one of: discuss:pre, /);
  assert.equal(
    gates(['--point', 'ship:pre']),
    "--builtin (GSD 1.14's own gates), --capability (once per capability file), --hooks (the output of gsd_run loop render-hooks) or --render (GSD renders them) is required",
  );
  const builtin = parseCommandLine(['gates', 'run', '--point', 'ship:pre', '--builtin', '--capability', 'a.json']);
  assert.deepEqual(builtin.ok && builtin.value.action === 'gates-run' && [builtin.value.options.builtin, builtin.value.options.capabilities], [
    true,
    ['a.json'],
  ]);
  assert.equal(
    gates(['--point', 'ship:pre', '--builtin', '--hooks', '-']),
    '--hooks and --builtin cannot be used together: rendered hooks are already resolved by GSD',
  );
  assert.match(usage(['check', 'predicate', '--predicate', '{}', '--builtin']), /^--builtin is not a flag of "check predicate"/);
  for (const bad of ['0', '-1', '1.5', 'x', '']) {
    assert.match(gates(['--point', 'ship:pre', '--capability', 'a', `--concurrency=${bad}`]), /^--concurrency must be a whole number of 1 or more/, bad);
  }
  assert.equal(gates(['--point', 'ship:pre', '--point', 'ship:pre', '--capability', 'a']), '--point ship:pre is given more than once');
  // The least of each bound is allowed.
  const least = parseCommandLine(['gates', 'run', '--point', 'ship:pre', '--capability', 'a', '--concurrency', '1', '--query-timeout', '0.5']);
  assert.deepEqual(least.ok && least.value.action === 'gates-run' && [least.value.options.concurrency, least.value.options.queryTimeout], [1, 0.5]);
});

test('gates run: --point repeated runs those points in the order given, --all-points all 12 in loop order; never both', () => {
  const points = (argv: string[]) => {
    const result = parseCommandLine(['gates', 'run', '--builtin', ...argv]);
    return result.ok && result.value.action === 'gates-run' ? [result.value.options.points, result.value.options.printed] : result;
  };
  assert.deepEqual(points(['--point', 'ship:pre', '--point=plan:pre']), [['ship:pre', 'plan:pre'], 'run']);
  assert.deepEqual(points(['--point', 'ship:pre']), [['ship:pre'], 'point']);
  assert.deepEqual(points(['--all-points']), [[...LOOP_POINTS], 'run']);
  assert.equal(LOOP_POINTS.length, 12);
  assert.equal(
    usage(['gates', 'run', '--builtin', '--all-points', '--point', 'ship:pre']),
    '--point and --all-points cannot be used together: --all-points runs every point',
  );
  assert.match(usage(['gates', 'run', '--builtin', '--point', 'ship:pre', '--point', 'nope']), /^--point "nope" is not a loop point/);
});

test('gates run: --hooks instead of --capability, the query command and its timeout', () => {
  const parsed = parseCommandLine([
    'gates',
    'run',
    '--point',
    'ship:pre',
    '--hooks',
    '-',
    '--query-command',
    'gsd-tools check "$GSD_QUERY" 04',
    '--query-timeout',
    '2.5',
  ]);
  assert.ok(parsed.ok && parsed.value.action === 'gates-run');
  const options = parsed.value.options;
  assert.deepEqual([options.hooks, options.capabilities, options.queryCommand, options.queryTimeout], ['-', [], 'gsd-tools check "$GSD_QUERY" 04', 2.5]);
  const defaults = parseCommandLine(['gates', 'run', '--point', 'ship:pre', '--capability', 'c.json']);
  assert.ok(defaults.ok && defaults.value.action === 'gates-run');
  assert.deepEqual([defaults.value.options.hooks, defaults.value.options.queryCommand, defaults.value.options.queryTimeout], [undefined, undefined, 30]);
  const refused = (...argv: string[]) => {
    const result = parseCommandLine(['gates', 'run', '--point', 'ship:pre', ...argv]);
    return result.ok ? 'accepted' : result.failure.message;
  };
  assert.equal(
    refused('--hooks', 'h.json', '--capability', 'c.json'),
    '--hooks and --capability cannot be used together: rendered hooks are already resolved by GSD (see gsd-check --help)',
  );
  assert.equal(
    refused(),
    "--builtin (GSD 1.14's own gates), --capability (once per capability file), --hooks (the output of gsd_run loop render-hooks) or --render (GSD renders them) is required (see gsd-check --help)",
  );
  assert.equal(refused('--hooks='), '--hooks needs a file (or - for standard input) (see gsd-check --help)');
  assert.equal(refused('--hooks', '-', '--query-command', ' '), '--query-command needs a shell command (see gsd-check --help)');
  for (const value of ['0', '-1', 'x', '1e999']) {
    assert.equal(
      refused('--hooks', '-', `--query-timeout=${value}`),
      `--query-timeout must be a positive finite number of seconds, got ${JSON.stringify(value)} (see gsd-check --help)`,
      value,
    );
  }
});

test("gates run: --reached needs the phase and takes all 12 points unless told fewer, always the run's envelope; --ship counts with it; --render with no other source; --require-tested-gsd with --render or --builtin", () => {
  const parsed = (argv: string[], env: { requireTestedGsd?: boolean } = {}) => {
    const result = parseCommandLine(['gates', 'run', ...argv], { jsonErrors: false, ...env });
    assert.ok(result.ok, result.ok ? '' : result.failure.message);
    assert.equal(result.value.action, 'gates-run');
    return result.value.action === 'gates-run' ? result.value.options : assert.fail();
  };
  const gates = (argv: string[]) => usage(['gates', 'run', ...argv]);
  const all = parsed(['--reached', '--current-phase', '--builtin']);
  assert.deepEqual([all.points.length, all.printed, all.reached, all.ship], [12, 'run', true, false]);
  const one = parsed(['--reached', '--point', 'ship:pre', '--phase-number', '04', '--ship', '--builtin']);
  assert.deepEqual([one.points, one.printed, one.ship], [['ship:pre'], 'run', true]);
  assert.equal(parsed(['--reached', '--phase-dir', 'p', '--render']).render, true);
  const unphased =
    "no phase selected: --reached reads the points GSD's loop has reached for it; give --current-phase (the one STATE.md names), --phase-number or --phase-dir";
  assert.equal(gates(['--reached', '--builtin']), unphased);
  // An empty value selects none, as GSD reads it.
  assert.equal(gates(['--reached', '--builtin', '--phase-number=', '--phase-dir=']), unphased);
  assert.equal(
    gates(['--all-points', '--ship', '--builtin']),
    '--ship counts with --reached: it says the run is the ship of the phase whose reached points run',
  );
  for (const [other, name] of [
    [['--hooks', 'h.json'], '--hooks'],
    [['--builtin'], '--builtin'],
    [['--capability', 'c.json'], '--capability'],
  ] as const) {
    assert.equal(gates(['--all-points', '--render', ...other]), `--render and ${name} cannot be used together: --render has GSD render the hooks itself`);
  }
  assert.equal(parsed(['--all-points', '--render', '--require-tested-gsd']).requireTestedGsd, true);
  assert.equal(parsed(['--all-points', '--builtin'], { requireTestedGsd: true }).requireTestedGsd, true);
  assert.equal(parsed(['--all-points', '--builtin']).requireTestedGsd, false);
  assert.equal(
    gates(['--all-points', '--capability', 'c.json', '--require-tested-gsd']),
    '--require-tested-gsd counts with --render or --builtin, which ask the GSD gsd_run finds for its version',
  );
});

test('gates run: --consent takes capability ids or *, repeatable, with --render only', () => {
  const parsed = parseCommandLine(['gates', 'run', '--all-points', '--render', '--consent', 'tests', '--consent=*', '--consent', 'release-checks'], {
    jsonErrors: false,
  });
  assert.ok(parsed.ok && parsed.value.action === 'gates-run');
  assert.deepEqual(parsed.value.options.consent, ['tests', '*', 'release-checks']);
  const none = parseCommandLine(['gates', 'run', '--all-points', '--render'], { jsonErrors: false });
  assert.ok(none.ok && none.value.action === 'gates-run');
  assert.deepEqual(none.value.options.consent, []);
  const gates = (argv: string[]) => usage(['gates', 'run', '--all-points', ...argv]);
  for (const source of [['--builtin'], ['--capability', 'c.json'], ['--hooks', 'h.json']]) {
    assert.equal(gates([...source, '--consent', 'tests']), "--consent counts with --render: it is GSD's consent to load a project's capability");
  }
  for (const id of ['Tests', '', '1tests', 'tests/x', '**', 'all tests']) {
    assert.equal(gates(['--render', '--consent', id]), `--consent ${JSON.stringify(id)} is not a capability id (kebab-case, as GSD names them) or *`);
  }
});
