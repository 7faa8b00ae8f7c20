import { testGateContext } from '../helpers/deps.ts';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { fakeRunner, type RunResultSketch } from '../helpers/fake-runner.ts';
import { project } from '../helpers/project.ts';
import { gsdAsker, type GsdRequest } from '../../src/gsd/ask.ts';
import type { Gsd } from '../../src/gsd/installation.ts';
import type { GateContext } from '../../src/predicate/kind.ts';
import type { RunOptions } from '../../src/run/runner.ts';

// Requests asked once each, one after another.
const POOL = <T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> =>
  items.reduce<Promise<R[]>>(async (done, item) => [...(await done), await work(item)], Promise.resolve([]));

// A GSD installed as npm installs it: gsd-tools.cjs beside its lib/, the
// package's version two levels up.
function installed(t: Parameters<typeof project>[0], version: string, cliExit = true): { root: string; gsd: Gsd } {
  const root = project(t, {
    'node_modules/@opengsd/gsd-core/package.json': JSON.stringify({ name: '@opengsd/gsd-core', version }),
    'node_modules/@opengsd/gsd-core/gsd-core/bin/gsd-tools.cjs': '// GSD\n',
    ...(cliExit ? { 'node_modules/@opengsd/gsd-core/gsd-core/bin/lib/cli-exit.cjs': '// runMain\n' } : {}),
  });
  return { root, gsd: { path: join(root, 'node_modules/@opengsd/gsd-core/gsd-core/bin/gsd-tools.cjs'), how: 'node', found: 'gsd_run on PATH' } };
}

const context = (
  root: string,
  seen: RunOptions[],
  answer: RunResultSketch | ((options: RunOptions) => RunResultSketch),
  env: Record<string, string> = {},
): GateContext => testGateContext(root, fakeRunner(answer, seen), { env: { PATH: '/bin', ...env } });

const REQUESTS: GsdRequest[] = [
  { args: ['runtime-identity', '--raw'], env: {}, timeoutMs: 30_000, keepStdout: 64 },
  { args: ['check', 'ui.plan-gate', '04', '--raw'], env: { GSD_QUERY: 'ui.plan-gate' }, timeoutMs: 10_000, keepStdout: 4 },
];

// The batch's stdout for these answers: each stream base64, and the order
// of GSD's writes.
const batchOut = (answers: { code: number; writes: [1 | 2, string][] }[]): string =>
  JSON.stringify(
    answers.map(({ code, writes }) => ({
      code,
      stdout: Buffer.from(
        writes
          .filter(([fd]) => fd === 1)
          .map(([, text]) => text)
          .join(''),
      ).toString('base64'),
      stderr: Buffer.from(
        writes
          .filter(([fd]) => fd === 2)
          .map(([, text]) => text)
          .join(''),
      ).toString('base64'),
      order: writes.map(([fd, text]) => [fd, Buffer.byteLength(text)]),
    })),
  );

test("a run's requests go to one GSD process, and each comes back as its own run would: status, stdout kept as asked, both streams in the order written", async (t) => {
  const { root, gsd } = installed(t, '1.14.0');
  const seen: RunOptions[] = [];
  const out = batchOut([
    { code: 0, writes: [[1, '{"version":"1.14.0"}\n']] },
    {
      code: 1,
      writes: [
        [1, '{"block"'],
        [2, 'Error: no\n'],
        [1, ':true}'],
      ],
    },
  ]);
  const warnings: string[] = [];
  const answers = await gsdAsker(gsd, context(root, seen, { stdout: { text: out, complete: true } }), (line) => warnings.push(line), POOL)(REQUESTS);
  assert.equal(seen.length, 1);
  assert.equal(seen[0]!.command, `node -e "$GSD_CHECK_BATCH" '${gsd.path}'`);
  assert.equal(seen[0]!.timeoutMs, 40_000);
  assert.deepEqual(JSON.parse(seen[0]!.env.GSD_CHECK_BATCH_REQUESTS!), {
    env: { PATH: '/bin' },
    requests: REQUESTS.map((r) => ({ cwd: root, args: r.args, env: r.env })),
  });
  assert.match(seen[0]!.env.GSD_CHECK_BATCH!, /Module\._load\(tools, null, true\)/);
  assert.deepEqual(
    answers.map((a) => (a.status === 'ended' ? [a.exitCode, a.stdout, a.output] : a.status)),
    [
      [0, { text: '{"version":"1.14.0"}\n', complete: true }, { text: '{"version":"1.14.0"}\n', stdoutBytes: 21, stderrBytes: 0, truncated: false }],
      [1, { text: '{"bl', complete: false }, { text: '{"block"Error: no\n:true}', stdoutBytes: 14, stderrBytes: 10, truncated: false }],
    ],
  );
  assert.deepEqual(warnings, []);
});

test("a batch that fails asks once a request, with one warning for the run; a stop is every request's stop", async (t) => {
  const { root, gsd } = installed(t, '1.11.0');
  for (const [batch, why] of [
    [{ exitCode: 1 }, 'it exited 1'],
    [{ timedOut: true, exitCode: null, signal: 'SIGKILL' }, 'it timed out'],
    [{ spawnError: 'ENOENT' }, 'it could not start'],
    [{ stdout: { text: '[]', complete: true } }, 'its answers were not one for each request'],
    [{ stdout: { text: '[{"code":0}', complete: false } }, 'its answers were larger than the requests allow'],
    [
      {
        stdout: {
          text: batchOut([
            { code: 0, writes: [] },
            { code: 0, writes: [] },
          ]).replace('"order":[]', '"order":[[3,1]]'),
          complete: true,
        },
      },
      'its answer 1 was not one',
    ],
  ] as const) {
    const seen: RunOptions[] = [];
    const warnings: string[] = [];
    const ask = gsdAsker(
      gsd,
      context(root, seen, (options) => (options.command.includes('GSD_CHECK_BATCH') ? batch : { stdout: { text: 'one', complete: true } })),
      (line) => warnings.push(line),
      POOL,
    );
    const answers = await ask(REQUESTS);
    assert.deepEqual(
      seen.map((s) => s.command),
      [`node -e "$GSD_CHECK_BATCH" '${gsd.path}'`, `node '${gsd.path}' 'runtime-identity' '--raw'`, `node '${gsd.path}' 'check' 'ui.plan-gate' '04' '--raw'`],
      why,
    );
    assert.deepEqual(seen[2]!.env, { PATH: '/bin', GSD_QUERY: 'ui.plan-gate' });
    assert.deepEqual(
      answers.map((a) => a.stdout?.text),
      ['one', 'one'],
    );
    assert.deepEqual(warnings, [`gsd-check: warning: one GSD process could not answer the run's requests (${why}); asking GSD once a request`]);
    await ask(REQUESTS);
    assert.equal(warnings.length, 1, 'one warning a run');
  }
  const seen: RunOptions[] = [];
  const stopped = await gsdAsker(gsd, context(root, seen, { interrupted: 'SIGTERM' }), () => assert.fail('no warning'), POOL)(REQUESTS);
  assert.deepEqual([seen.length, stopped.map((a) => a.status)], [1, ['stopped', 'stopped']]);
});

test('once a request, no batch: a GSD of a line the batch is not held to, one without lib/cli-exit.cjs, a launcher, one request, GSD_CHECK_GSD_BATCH=off', async (t) => {
  const commands = async (gsd: Gsd, root: string, requests = REQUESTS, env: Record<string, string> = {}): Promise<string[]> => {
    const seen: RunOptions[] = [];
    const answer = { stdout: { text: batchOut(requests.map(() => ({ code: 0, writes: [] }))), complete: true } };
    await gsdAsker(gsd, context(root, seen, answer, env), () => assert.fail('no warning'), POOL)(requests);
    return seen.map((s) => s.command.split(' ')[1]!);
  };
  const other = installed(t, '1.12.0');
  assert.deepEqual(await commands(other.gsd, other.root), [`'${other.gsd.path}'`, `'${other.gsd.path}'`]);
  const bare = installed(t, '1.14.0', false);
  assert.deepEqual(await commands(bare.gsd, bare.root), [`'${bare.gsd.path}'`, `'${bare.gsd.path}'`]);
  const tested = installed(t, '1.14.2');
  assert.deepEqual(await commands(tested.gsd, tested.root, REQUESTS.slice(0, 1)), [`'${tested.gsd.path}'`]);
  assert.deepEqual(await commands(tested.gsd, tested.root, REQUESTS, { GSD_CHECK_GSD_BATCH: 'off' }), [`'${tested.gsd.path}'`, `'${tested.gsd.path}'`]);
  assert.deepEqual(await commands(tested.gsd, tested.root), ['-e']);
  const launcher: Gsd = { path: join(tested.root, 'gsd_run'), how: 'exec', found: 'gsd_run on PATH' };
  assert.deepEqual((await commands(launcher, tested.root)).length, 2);
  // GSD's own gsd_run runs the gsd-tools.cjs beside it with node: so does the batch.
  const own = installed(t, '1.14.0');
  const beside = join(own.root, 'node_modules/@opengsd/gsd-core/gsd-core/bin/gsd_run');
  writeFileSync(beside, '#!/bin/sh\n');
  mkdirSync(join(own.root, 'bin'));
  symlinkSync(beside, join(own.root, 'bin/gsd_run'));
  const seen: RunOptions[] = [];
  await gsdAsker(
    { path: join(own.root, 'bin/gsd_run'), how: 'exec', found: 'gsd_run on PATH' },
    context(own.root, seen, {
      stdout: {
        text: batchOut([
          { code: 0, writes: [] },
          { code: 0, writes: [] },
        ]),
        complete: true,
      },
    }),
    () => assert.fail('no warning'),
    POOL,
  )(REQUESTS);
  assert.deepEqual(
    seen.map((s) => s.command),
    [`node -e "$GSD_CHECK_BATCH" '${own.gsd.path}'`],
  );
});

test('requests too large to hand over as one variable are asked once a request, said once', async (t) => {
  const { root, gsd } = installed(t, '1.14.0');
  const seen: RunOptions[] = [];
  const warnings: string[] = [];
  const big = [{ ...REQUESTS[0]!, env: { X: 'x'.repeat(130 * 1024) } }, REQUESTS[1]!];
  await gsdAsker(gsd, context(root, seen, {}), (line) => warnings.push(line), POOL)(big);
  assert.equal(seen.length, 2);
  assert.deepEqual(warnings, [
    "gsd-check: warning: one GSD process could not answer the run's requests (the requests are too large to hand over); asking GSD once a request",
  ]);
});

test('requests known ahead go with the first batch and are answered from it later; asked once a request, none is asked before it is needed', async (t) => {
  const { root, gsd } = installed(t, '1.14.0');
  const later: GsdRequest[] = [
    { args: ['loop', 'render-hooks', 'plan:pre', '--raw'], env: {}, timeoutMs: 60_000, keepStdout: 99 },
    { args: ['loop', 'render-hooks', 'ship:pre', '--raw'], env: {}, timeoutMs: 60_000, keepStdout: 99 },
  ];
  const seen: RunOptions[] = [];
  const out = batchOut([
    { code: 0, writes: [[1, 'id']] },
    { code: 0, writes: [[1, 'plan']] },
    { code: 0, writes: [[1, 'ship']] },
  ]);
  const ask = gsdAsker(gsd, context(root, seen, { stdout: { text: out, complete: true } }), () => assert.fail('no warning'), POOL, later);
  assert.deepEqual(
    (await ask([REQUESTS[0]!])).map((a) => a.stdout?.text),
    ['id'],
  );
  assert.deepEqual(
    JSON.parse(seen[0]!.env.GSD_CHECK_BATCH_REQUESTS!).requests.map((r: { args: string[] }) => r.args.join(' ')),
    ['runtime-identity --raw', 'loop render-hooks plan:pre --raw', 'loop render-hooks ship:pre --raw'],
  );
  assert.deepEqual(
    (await ask([later[1]!, later[0]!])).map((a) => a.stdout?.text),
    ['ship', 'plan'],
  );
  assert.equal(seen.length, 1, 'the later requests were answered by the first batch');
  // Once a request: the first call asks only itself.
  const each: RunOptions[] = [];
  const single = gsdAsker(
    gsd,
    context(root, each, { stdout: { text: 'x', complete: true } }, { GSD_CHECK_GSD_BATCH: 'off' }),
    () => assert.fail('no warning'),
    POOL,
    later,
  );
  await single([REQUESTS[0]!]);
  assert.deepEqual(
    each.map((s) => s.command.split(' ').slice(2).join(' ')),
    ["'runtime-identity' '--raw'"],
  );
});

test('a request is asked once a run, in a batch or once each: asked again, and twice in one call, it is answered from the first', async (t) => {
  const { root, gsd } = installed(t, '1.14.0');
  for (const env of [{}, { GSD_CHECK_GSD_BATCH: 'off' }]) {
    const seen: RunOptions[] = [];
    const out = batchOut([
      { code: 0, writes: [[1, 'a']] },
      { code: 0, writes: [[1, 'b']] },
    ]);
    const ask = gsdAsker(
      gsd,
      context(
        root,
        seen,
        (options) => (options.command.includes('GSD_CHECK_BATCH') ? { stdout: { text: out, complete: true } } : { stdout: { text: 'x', complete: true } }),
        env,
      ),
      () => assert.fail('no warning'),
      POOL,
    );
    const first = await ask([REQUESTS[0]!, REQUESTS[1]!, REQUESTS[0]!]);
    const again = await ask([REQUESTS[1]!]);
    assert.deepEqual([first.length, again[0]], [3, first[1]], JSON.stringify(env));
    assert.equal(first[0], first[2]);
    assert.equal(seen.length, env.GSD_CHECK_GSD_BATCH === 'off' ? 2 : 1, JSON.stringify(env));
  }
});
