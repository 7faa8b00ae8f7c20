import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { checkVersionEnvelope, satisfies } from '../../src/gates/manifest-version.ts';
import { BUILT_IN_VERSION } from '../../src/gsd/identity.ts';
import { ManifestIssues } from '../../src/gates/manifest-fields.ts';
import { told } from '../helpers/manifest.ts';

const envelope = (cap: Record<string, unknown>): string[] => {
  const issues = new ManifestIssues();
  checkVersionEnvelope({ version: '1.0.0', ...cap }, issues);
  return told(issues.list);
};

test('the version is SemVer 2.0.0 whole', () => {
  for (const version of ['1.2.3', '0.0.0', '1.2.3-rc.1', '1.2.3-dev.0', '1.2.3+build.5', '10.20.30-alpha-1+x'])
    assert.deepEqual(envelope({ version }), [], version);
  for (const version of ['1.0', 'v1.0.0', '01.2.3', '1.2.3-01', '1.2.3-..', '1.2.3-a b', 1]) {
    assert.deepEqual(envelope({ version }), [`refused version: must be a semantic version such as "1.2.3", got ${JSON.stringify(version)}`], String(version));
  }
  assert.deepEqual(envelope({ version: undefined }), ['refused version: is required (a semantic version such as "1.2.3")']);
});

test('engines.gsd: a range, and one that admits GSD 1.14.0', () => {
  assert.equal(BUILT_IN_VERSION, '1.14.0');
  for (const gsd of ['>=1.6.0', '^1.14', '~1.14.0', '1.x', '*', '>=1.0.0 <2.0.0', '<1.0.0 || >=1.14.0', '1.14.0', ' >=1.6.0 '])
    assert.deepEqual(envelope({ engines: { gsd } }), [], gsd);
  assert.deepEqual(envelope({ engines: {} }), []);
  assert.deepEqual(envelope({ engines: { gsd: '>=2.0.0' } }), ['refused engines.gsd: ">=2.0.0" excludes GSD 1.14.0, the GSD gsd-check checks against']);
  assert.deepEqual(envelope({ engines: { gsd: 'latest' } }), [
    'refused engines.gsd: must be a version range such as ">=1.6.0" (digits, letters and . - + | < > = ~ ^ * ( ) and spaces), got "latest"',
  ]);
  assert.deepEqual(envelope({ engines: { gsd: '>=1.0; rm -rf' } })[0]?.startsWith('refused engines.gsd: must be a version range'), true);
  assert.deepEqual(envelope({ engines: '>=1.6.0' }), ['refused engines: must be an object such as {"gsd": ">=1.6.0"}, got ">=1.6.0"']);
});

test('compatVersions, integrity, provenance', () => {
  assert.deepEqual(envelope({ compatVersions: { '1.0.0': '>=1.6.0' } }), []);
  assert.deepEqual(envelope({ compatVersions: { '1.0': '' } }), [
    'refused compatVersions["1.0"]: the key "1.0" must be a semantic version such as "1.2.3"',
    'refused compatVersions["1.0"]: must be a version range such as ">=1.6.0" (digits, letters and . - + | < > = ~ ^ * ( ) and spaces), got ""',
  ]);
  assert.deepEqual(envelope({ compatVersions: [] }), ['refused compatVersions: must be an object from capability versions to GSD version ranges, got []']);
  assert.deepEqual(envelope({ integrity: `sha512-${'A'.repeat(86)}==` }), []);
  assert.deepEqual(envelope({ integrity: 'sha512-abc' }), ['refused integrity: must be "sha512-" and the base64 of a SHA-512 digest, got "sha512-abc"']);
  assert.deepEqual(envelope({ provenance: { sourceRepo: 'https://x', commit: 'abc' } }), []);
  assert.deepEqual(envelope({ provenance: { commit: '' } }), [
    'refused provenance.sourceRepo: is required (a non-empty string)',
    'refused provenance.commit: must be a non-empty string, got ""',
  ]);
});

test("ranges as GSD's semver-compare reads them", () => {
  const cases: [string, string, boolean][] = [
    ['1.14.0', '>=1.14.0', true],
    ['1.14.0', '>1.14.0', false],
    ['1.14.0', '<=1.14', true],
    ['1.14.0', '=1.14.0', true],
    ['1.14.0', '1.14', true],
    ['1.14.0', '1', true],
    ['1.14.0', '2', false],
    ['1.14.0', '^1.0.0', true],
    ['1.14.0', '^0.14.0', false],
    ['0.14.5', '^0.14.0', true],
    ['0.0.3', '^0.0.3', true],
    ['0.0.4', '^0.0.3', false],
    ['1.14.0', '~1.13', false],
    ['1.14.9', '~1.14', true],
    ['1.14.0', '~1', true],
    ['1.14.0', '1.x.2', false],
    ['1.14.0', '>=*', false],
    ['1.14.0', '>= 1.0.0', false],
    ['1.14.0', '1.0.0 - 2.0.0', false],
    ['1.14.0', '1.2.3.4', false],
    ['1.14.0', '||', false],
    ['1.14.0', ' ', false],
    ['1.14.0', '1.14.0-rc.1', true],
    ['1.14.0', '<1.0.0 || 1.14.x', true],
    ['1.14.0', 'x', true],
    ['1.14.0', 'v1.14.0', true],
  ];
  for (const [version, range, expected] of cases) assert.equal(satisfies(version, range), expected, `${version} in ${JSON.stringify(range)}`);
});
