import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { BUILT_IN_VERSION, isTested, parseIdentity, TESTED_LINE } from '../../src/gsd/identity.ts';
import { packageVersion } from '../../src/gsd/installation.ts';

// Which GSD a found gsd-tools says it is (runtime-identity --raw), what its
// package says when it is older than the verb, and which versions gsd-check
// is tested with.

const WHAT = '/opt/gsd/bin/gsd-tools';

test("runtime-identity's answer from GSD 1.14: its version", () => {
  assert.deepEqual(parseIdentity('{"packageName":"@opengsd/gsd-core","version":"1.14.0"}\n', WHAT), { ok: true, value: { version: '1.14.0' } });
  // Whatever else it says beside.
  assert.deepEqual(parseIdentity('{"packageName":"@opengsd/gsd-core","version":"2.0.0-beta.1","runtime":"claude"}', WHAT), {
    ok: true,
    value: { version: '2.0.0-beta.1' },
  });
});

test('an answer that does not prove it is GSD: query-failed, saying what it answered', () => {
  const failure = (stdout: string) => {
    const parsed = parseIdentity(stdout, WHAT);
    return parsed.ok ? undefined : parsed.failure;
  };
  const notProved = (answered: string) => ({
    reason: 'query-failed',
    message: `${WHAT} did not prove it is @opengsd/gsd-core: runtime-identity answered ${answered}`,
    issues: [],
  });
  assert.deepEqual(failure('{"packageName":"get-shit-done-cc","version":"1.14.0"}'), notProved('packageName "get-shit-done-cc"'));
  assert.deepEqual(failure('{"version":"1.14.0"}'), notProved('packageName nothing'));
  // The package proved, but no version to name.
  const noVersion = (answered: string) => ({
    reason: 'query-failed',
    message: `${WHAT} did not say which version of @opengsd/gsd-core it is: runtime-identity answered version ${answered}`,
    issues: [],
  });
  assert.deepEqual(failure('{"packageName":"@opengsd/gsd-core","version":1.14}'), noVersion('1.14'));
  assert.deepEqual(failure('{"packageName":"@opengsd/gsd-core"}'), noVersion('nothing'));
  assert.deepEqual(failure('["@opengsd/gsd-core","1.14.0"]'), notProved('an array of 2'));
  assert.deepEqual(failure('"1.14.0"'), notProved('"1.14.0"'));
  assert.deepEqual(failure('null'), notProved('null'));
});

test('an answer that is not JSON (GSD 1.11 prints "Unknown command", a launcher prints nothing): it did not say which GSD it is', () => {
  const failure = (stdout: string) => {
    const parsed = parseIdentity(stdout, WHAT);
    return parsed.ok ? undefined : parsed.failure;
  };
  assert.deepEqual(failure('Unknown command: runtime-identity\n'), {
    reason: 'query-failed',
    message: `${WHAT} did not say which GSD it is: ${WHAT}'s runtime-identity answer is not valid JSON: unexpected character at line 1, column 1`,
    issues: [],
  });
  assert.deepEqual(failure(''), {
    reason: 'query-failed',
    message: `${WHAT} did not say which GSD it is: ${WHAT}'s runtime-identity answer is not valid JSON: unexpected end at line 1, column 1`,
    issues: [],
  });
});

// A package tree, read as readSmallFile would: a file's text, or undefined.
const reader = (files: Record<string, string>) => {
  const asked: string[] = [];
  const read = (path: string): string | undefined => (asked.push(path), files[path]);
  return { read, asked };
};
// npm's layout: the package's gsd-core/bin/ holds gsd-tools.cjs and gsd_run.
const FOUND = '/usr/lib/node_modules/@opengsd/gsd-core/gsd-core/bin/gsd-tools.cjs';
const TWO_UP = '/usr/lib/node_modules/@opengsd/gsd-core/package.json';
const THREE_UP = '/usr/lib/node_modules/@opengsd/package.json';

test("an older GSD's version from its package.json, two levels above the file's directory, else three", () => {
  const near = reader({ [TWO_UP]: '{"name":"@opengsd/gsd-core","version":"1.11.0"}', [THREE_UP]: '{"name":"@opengsd/gsd-core","version":"9.9.9"}' });
  assert.equal(packageVersion(FOUND, near.read), '1.11.0');
  assert.deepEqual(near.asked, [TWO_UP]);
  const far = reader({ [THREE_UP]: '{"name":"@opengsd/gsd-core","version":"1.11.0"}' });
  assert.equal(packageVersion(FOUND, far.read), '1.11.0');
  assert.deepEqual(far.asked, [TWO_UP, THREE_UP]);
  // Relative to the file given, whatever it is called.
  assert.equal(
    packageVersion('/p/.claude/gsd-core/bin/gsd_run', reader({ [join('/p/.claude', 'package.json')]: '{"name":"@opengsd/gsd-core","version":"1.12.1"}' }).read),
    '1.12.1',
  );
});

test("no version from a package.json that is missing, unreadable, not JSON, another package's, or names none: the next one is tried", () => {
  const version = (files: Record<string, string>) => packageVersion(FOUND, reader(files).read);
  const good = '{"name":"@opengsd/gsd-core","version":"1.11.0"}';
  assert.equal(version({}), undefined);
  for (const bad of [
    '{',
    '[]',
    '"@opengsd/gsd-core"',
    '{"name":"other","version":"1.0.0"}',
    '{"name":"@opengsd/gsd-core"}',
    '{"name":"@opengsd/gsd-core","version":1}',
    '{"version":"1.11.0"}',
  ]) {
    assert.equal(version({ [TWO_UP]: bad }), undefined, bad);
    assert.equal(version({ [TWO_UP]: bad, [THREE_UP]: good }), '1.11.0', bad);
  }
});

test('tested: a release or prerelease of the 1.14 line, nothing else', () => {
  assert.equal(TESTED_LINE, '1.14');
  assert.equal(BUILT_IN_VERSION, '1.14.0');
  assert.equal(isTested(BUILT_IN_VERSION), true);
  for (const version of ['1.14.0', '1.14.7', '1.14.12', '1.14.1-rc.1', '1.14.0+build.5']) assert.equal(isTested(version), true, version);
  for (const version of ['1.13.9', '1.15.0', '1.140.0', '11.14.0', '1.14', '1.14.', '1.14.x', '1.14.0.1', 'v1.14.0', '1.14.0 ', ' 1.14.0', ''])
    assert.equal(isTested(version), false, version);
});
