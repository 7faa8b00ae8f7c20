import assert from 'node:assert/strict';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { test, type TestContext } from '../helpers/bounded.ts';
import { tempDir } from '../helpers/support.ts';
import { bundleContentHash } from '../../src/gsd/bundle-hash.ts';
import { consentHome, projectConsent, type ProjectConsent } from '../../src/gsd/consent.ts';

// GSD's consent for a project's capabilities, given for one run: which of
// the project's folders it is given for, which GSD loads without it, and the
// home of the run's own that GSD is pointed at.

function projectWith(t: TestContext, ids: readonly string[]): string {
  const root = tempDir(t);
  mkdirSync(join(root, '.planning'));
  for (const id of ids) {
    mkdirSync(join(root, '.gsd', 'capabilities', id), { recursive: true });
    writeFileSync(join(root, '.gsd', 'capabilities', id, 'capability.json'), JSON.stringify({ id }));
  }
  return root;
}

const hashOf = (root: string, id: string): string => {
  const hash = bundleContentHash(join(root, '.gsd', 'capabilities', id));
  assert.ok(hash.ok);
  return hash.value;
};
const record = (root: string, id: string, contentHash: string) => ({
  projectRoot: realpathSync(root),
  id,
  scope: 'project',
  integrity: '',
  disclosureSignature: '',
  contentHash,
  consentedAt: '2026-12-01T00:00:00.000Z',
});
function store(home: string, records: Record<string, unknown>): void {
  mkdirSync(join(home, '.gsd'), { recursive: true });
  writeFileSync(join(home, '.gsd', 'consent.json'), JSON.stringify({ version: '1', records }));
}
const given = (consent: ReturnType<typeof projectConsent>): ProjectConsent => {
  assert.ok(consent.ok, consent.ok ? '' : consent.failure.message);
  return consent.value;
};

test("the ids given, or * for every folder of the project's that holds a capability.json and is named as GSD names one", (t) => {
  const root = projectWith(t, ['tests', 'audit']);
  mkdirSync(join(root, '.gsd', 'capabilities', '.staging'));
  mkdirSync(join(root, '.gsd', 'capabilities', 'empty'));
  const home = tempDir(t);
  const some = given(projectConsent(['tests', 'tests'], root, {}, home));
  assert.deepEqual(some, { root: realpathSync(root), given: [{ id: 'tests', hash: hashOf(root, 'tests') }], missing: ['audit'], cannot: {} });
  const every = given(projectConsent(['*'], root, {}, home));
  assert.deepEqual(every.given.map((g) => g.id).sort(), ['audit', 'tests']);
  assert.deepEqual(every.missing, []);
  assert.deepEqual(given(projectConsent([], root, {}, home)).missing, ['audit', 'tests']);
});

test("an id the project has no capability for fails, naming those it has; so does one in GSD's home", (t) => {
  const root = projectWith(t, ['tests']);
  const home = tempDir(t);
  mkdirSync(join(home, '.gsd', 'capabilities', 'global-one'), { recursive: true });
  writeFileSync(join(home, '.gsd', 'capabilities', 'global-one', 'capability.json'), '{}');
  for (const id of ['release', 'global-one', 'empty']) {
    const consent = projectConsent([id], root, {}, home);
    assert.deepEqual(consent.ok ? undefined : [consent.failure.reason, consent.failure.message], [
      'usage',
      `--consent ${id}: the project has no such capability in .gsd/capabilities/ (which holds tests)`,
    ]);
  }
  const none = projectConsent(['tests'], projectWith(t, []), {}, home);
  assert.equal(none.ok ? undefined : none.failure.message, '--consent tests: the project has no such capability in .gsd/capabilities/ (which holds none)');
});

test("a record of the user's for the project and the folder's hash is consent; another hash, project or scope, or a record GSD would not take, is none", (t) => {
  const root = projectWith(t, ['tests']);
  const other = projectWith(t, ['tests']);
  const cases: [string, Record<string, unknown>, boolean][] = [
    ['matching', { a: record(root, 'tests', hashOf(root, 'tests')) }, true],
    ['another hash', { a: record(root, 'tests', 'sha512-x') }, false],
    ['another project', { a: record(other, 'tests', hashOf(root, 'tests')) }, false],
    ['global scope', { a: { ...record(root, 'tests', hashOf(root, 'tests')), scope: 'global' } }, false],
    ['no consentedAt', { a: { ...record(root, 'tests', hashOf(root, 'tests')), consentedAt: '' } }, false],
    ['no integrity', { a: { ...record(root, 'tests', hashOf(root, 'tests')), integrity: undefined } }, false],
    ['the last of an id decides', { a: record(root, 'tests', hashOf(root, 'tests')), b: record(root, 'tests', 'sha512-x') }, false],
  ];
  for (const [name, records, consented] of cases) {
    const home = tempDir(t);
    store(home, records);
    assert.deepEqual(given(projectConsent([], root, {}, home)).missing, consented ? [] : ['tests'], name);
  }
  // GSD_HOME over the home directory, as GSD reads it.
  const gsdHome = tempDir(t);
  store(gsdHome, { a: record(root, 'tests', hashOf(root, 'tests')) });
  assert.deepEqual(given(projectConsent([], root, { GSD_HOME: gsdHome }, tempDir(t))).missing, []);
  assert.deepEqual(given(projectConsent([], root, { GSD_HOME: '' }, gsdHome)).missing, []);
});

test("the run's home: the records given and the user's own for the project, GSD's other files of the user's home linked, gone once removed", (t) => {
  const root = projectWith(t, ['tests', 'audit']);
  const home = tempDir(t);
  const mine = record(root, 'audit', hashOf(root, 'audit'));
  const elsewhere = { ...record(projectWith(t, []), 'other', 'sha512-y') };
  store(home, { mine, elsewhere });
  mkdirSync(join(home, '.gsd', 'capabilities'));
  writeFileSync(join(home, '.gsd', 'defaults.json'), '{}');
  writeFileSync(join(home, '.gsd-capabilities.json'), '{}');
  const consent = given(projectConsent(['tests'], root, {}, home));
  const made = consentHome(consent, {}, home);
  assert.ok(made.ok && made.value !== undefined);
  const dir = made.value.env.GSD_HOME!;
  assert.deepEqual(Object.keys(made.value.env), ['GSD_HOME']);
  const written = JSON.parse(readFileSync(join(dir, '.gsd', 'consent.json'), 'utf8')) as { version: string; records: Record<string, { id: string }> };
  assert.equal(written.version, '1');
  assert.deepEqual(
    Object.values(written.records)
      .map((r) => r.id)
      .sort(),
    ['audit', 'tests'],
  );
  const ours = Object.values(written.records).find((r) => r.id === 'tests');
  assert.deepEqual({ ...ours, consentedAt: 'now' }, { ...record(root, 'tests', hashOf(root, 'tests')), consentedAt: 'now' });
  assert.equal(statSync(join(dir, '.gsd', 'consent.json')).mode & 0o777, 0o600);
  assert.equal(statSync(dir).mode & 0o077, 0, 'the home is open to others');
  for (const [link, target] of [
    [join(dir, '.gsd', 'capabilities'), join(home, '.gsd', 'capabilities')],
    [join(dir, '.gsd', 'defaults.json'), join(home, '.gsd', 'defaults.json')],
    [join(dir, '.gsd-capabilities.json'), join(home, '.gsd-capabilities.json')],
  ]) {
    assert.ok(lstatSync(link!).isSymbolicLink(), `${link} is no link`);
    assert.equal(readlinkSync(link!), target);
  }
  made.value.remove();
  assert.equal(existsSync(dir), false);
  // The user's store is as it was.
  assert.deepEqual(Object.keys(JSON.parse(readFileSync(join(home, '.gsd', 'consent.json'), 'utf8')).records), ['mine', 'elsewhere']);
});

test('nothing given: no home is made; a user with no home of GSD: only the records given', (t) => {
  const root = projectWith(t, ['tests']);
  assert.deepEqual(consentHome(given(projectConsent([], root, {}, undefined)), {}, undefined), { ok: true, value: undefined });
  const made = consentHome(given(projectConsent(['tests'], root, {}, undefined)), {}, undefined);
  assert.ok(made.ok && made.value !== undefined);
  const dir = made.value.env.GSD_HOME!;
  t.after(() => made.value?.remove());
  assert.deepEqual(JSON.parse(readFileSync(join(dir, '.gsd', 'consent.json'), 'utf8')).records, {
    [JSON.stringify({ r: realpathSync(root), i: 'tests' })]: {
      ...record(root, 'tests', hashOf(root, 'tests')),
      consentedAt: JSON.parse(readFileSync(join(dir, '.gsd', 'consent.json'), 'utf8')).records[JSON.stringify({ r: realpathSync(root), i: 'tests' })]
        .consentedAt,
    },
  });
});

test('a folder GSD could not hash: consent for it fails (it would stay unloaded); without it, it is one GSD does not load', (t) => {
  const root = projectWith(t, ['tests']);
  symlinkSync('capability.json', join(root, '.gsd', 'capabilities', 'tests', 'link'));
  const consent = projectConsent(['tests'], root, {}, tempDir(t));
  assert.deepEqual(consent.ok ? undefined : [consent.failure.reason, consent.failure.message], [
    'unreadable-file',
    '--consent tests: GSD could not bind a consent record to .gsd/capabilities/tests/: link is a symbolic link',
  ]);
  const without = given(projectConsent([], root, {}, tempDir(t)));
  assert.deepEqual([without.missing, without.cannot], [['tests'], { tests: 'GSD cannot bind a consent record to it: link is a symbolic link' }]);
});

test("a GSD_HOME given relative is GSD's home relative to the project's root, where GSD runs: its links and records are that home's", (t) => {
  const root = projectWith(t, ['tests', 'audit']);
  const home = tempDir(t);
  store(home, { mine: record(root, 'audit', hashOf(root, 'audit')) });
  mkdirSync(join(home, '.gsd', 'capabilities'));
  const env = { GSD_HOME: relative(realpathSync(root), home) };
  const consent = given(projectConsent(['tests'], root, env, undefined));
  assert.deepEqual(consent.missing, [], "the user's record for audit, in the home GSD reads, was not read");
  const made = consentHome(consent, env, undefined);
  assert.ok(made.ok && made.value !== undefined);
  t.after(() => made.value?.remove());
  const dir = made.value.env.GSD_HOME!;
  assert.equal(realpathSync(join(dir, '.gsd', 'capabilities')), realpathSync(join(home, '.gsd', 'capabilities')));
  const written = JSON.parse(readFileSync(join(dir, '.gsd', 'consent.json'), 'utf8')) as { records: Record<string, { id: string }> };
  assert.deepEqual(
    Object.values(written.records)
      .map((r) => r.id)
      .sort(),
    ['audit', 'tests'],
  );
});

test("consent given for an id replaces every record of the user's for it: GSD takes the last of an id, whatever its key", (t) => {
  const root = projectWith(t, ['tests']);
  const home = tempDir(t);
  const key = JSON.stringify({ r: realpathSync(root), i: 'tests' });
  store(home, { [key]: record(root, 'tests', 'sha512-stale'), 'a later key': record(root, 'tests', 'sha512-stale') });
  const made = consentHome(given(projectConsent(['tests'], root, {}, home)), {}, home);
  assert.ok(made.ok && made.value !== undefined);
  t.after(() => made.value?.remove());
  const written = JSON.parse(readFileSync(join(made.value.env.GSD_HOME!, '.gsd', 'consent.json'), 'utf8')) as {
    records: Record<string, { id: string; contentHash: string }>;
  };
  assert.deepEqual(
    Object.values(written.records).map((r) => [r.id, r.contentHash]),
    [['tests', hashOf(root, 'tests')]],
  );
});

test('a store of more records than GSD takes (4096) is not made: GSD would read none of it', (t) => {
  const root = projectWith(t, ['tests']);
  const home = tempDir(t);
  const records: Record<string, unknown> = {};
  for (let n = 0; n < 4096; n++) records[`k${n}`] = record(root, `x${n}`, 'sha512-x');
  store(home, records);
  const made = consentHome(given(projectConsent(['tests'], root, {}, home)), {}, home);
  assert.deepEqual(made.ok ? undefined : [made.failure.reason, made.failure.message], [
    'usage',
    "--consent: the run's consent store would hold 4097 records for this project, and GSD reads none of a store of more than 4096",
  ]);
});

test('constructor and prototype: ids GSD keeps no consent record for, so consent for one fails, and a record of one is none', (t) => {
  const root = projectWith(t, ['prototype', 'tests']);
  for (const ids of [['prototype'], ['*']]) {
    const consent = projectConsent(ids, root, {}, tempDir(t));
    assert.deepEqual(consent.ok ? undefined : [consent.failure.reason, consent.failure.message], [
      'usage',
      '--consent prototype: GSD keeps no consent record for the id prototype (nor constructor), so it never loads .gsd/capabilities/prototype/',
    ]);
  }
  const home = tempDir(t);
  store(home, { a: record(root, 'prototype', hashOf(root, 'prototype')) });
  const consented = given(projectConsent(['tests'], root, {}, home));
  assert.deepEqual([consented.missing, consented.cannot], [['prototype'], { prototype: 'GSD keeps no consent record for the id prototype' }]);
});

test("a GSD home that is the project's root under another name: its folders are still the project's, as GSD takes them", (t) => {
  const root = projectWith(t, ['tests']);
  const alias = join(tempDir(t), 'alias');
  symlinkSync(root, alias);
  const consent = given(projectConsent(['tests'], root, { GSD_HOME: alias }, undefined));
  assert.deepEqual(consent.given, [{ id: 'tests', hash: hashOf(root, 'tests') }]);
  assert.deepEqual(given(projectConsent([], root, { GSD_HOME: alias }, undefined)).missing, ['tests']);
});

test("the user's store is read as GSD reads it (JSON.parse): a key given twice is the last, not a store refused", (t) => {
  const root = projectWith(t, ['tests']);
  const home = tempDir(t);
  mkdirSync(join(home, '.gsd'));
  const records = JSON.stringify({ a: record(root, 'tests', hashOf(root, 'tests')) });
  writeFileSync(join(home, '.gsd', 'consent.json'), `{"version": "1", "version": "1", "records": ${records}}`);
  assert.deepEqual(given(projectConsent([], root, {}, home)).missing, []);
});

test('a temp directory others may write without the sticky bit: no home is made there (another user could swap theirs in); with it, one is', (t) => {
  const root = projectWith(t, ['tests']);
  const consent = given(projectConsent(['tests'], root, {}, undefined));
  const before = process.env.TMPDIR;
  t.after(() => {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
  });
  const temp = tempDir(t);
  chmodSync(temp, 0o777);
  process.env.TMPDIR = temp;
  const refused = consentHome(consent, {}, undefined);
  assert.deepEqual(refused.ok ? undefined : [refused.failure.reason, refused.failure.message], [
    'unreadable-file',
    `--consent: the temp directory ${temp} is writable by others and has no sticky bit, where another user could put a home of theirs in the run's place: set TMPDIR to a directory of yours`,
  ]);
  assert.deepEqual(readdirSync(temp), []);
  chmodSync(temp, 0o1777);
  const made = consentHome(consent, {}, undefined);
  assert.ok(made.ok && made.value !== undefined);
  made.value.remove();
  assert.deepEqual(readdirSync(temp), []);
});
