// The npm package, as a user gets it: `npm pack` of this checkout, installed
// globally into a temporary prefix with no network, its `gsd-check` found on
// PATH and run; and the same tarball through `npx --package`. npm runs with a
// configuration, cache and home of its own, so nothing of the machine's npm
// setup (or registry) takes part.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { after, before, test } from './helpers/bounded.ts';
import { ROOT, tempDir } from './helpers/support.ts';
import { builtVersion } from '../release/built-version.mjs';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  files: string[];
  bin: Record<string, string>;
  private?: boolean;
};
const TARBALL = `${pkg.name}-${pkg.version}.tgz`;
// What the package's gsd-check answers --version: this tree's build, a
// release's line or one between releases (release/built-version.mjs).
const built = builtVersion(ROOT);
const escaped = (text: string) => text.replaceAll('.', '\\.');
const VERSION_LINE = new RegExp(
  `^gsd-check ${escaped(built.version)} \\(source [0-9a-f]{12}${built.after === undefined ? '' : `; unreleased, after ${escaped(built.after)}`}\\)\n$`,
);

// npm itself: the one that runs `npm test`, else the one on PATH.
const npmCommand = (): [string, string[]] => (process.env.npm_execpath ? [process.execPath, [process.env.npm_execpath]] : ['npm', []]);

function npmIn(home: string) {
  const env: NodeJS.ProcessEnv = {};
  // `npm test` hands its own settings down as npm_* variables: none of them.
  for (const [key, value] of Object.entries(process.env)) if (!/^npm_/i.test(key)) env[key] = value;
  writeFileSync(join(home, 'npmrc'), '');
  writeFileSync(join(home, 'global-npmrc'), '');
  Object.assign(env, {
    HOME: home,
    npm_config_userconfig: join(home, 'npmrc'),
    npm_config_globalconfig: join(home, 'global-npmrc'),
    npm_config_cache: join(home, 'cache'),
    // Nothing to reach: a request would fail at once, and --offline forbids one.
    npm_config_registry: 'http://127.0.0.1:9/',
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_loglevel: 'warn',
    // The node running this test runs npm and the installed bin's shebang.
    PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
  });
  const [command, prefix] = npmCommand();
  return (args: string[], cwd = home) => {
    const result = spawnSync(command, [...prefix, ...args], { cwd, env, encoding: 'utf8', timeout: 120_000 });
    assert.equal(result.status, 0, `npm ${args.join(' ')}: ${result.stderr}`);
    return { stdout: result.stdout, env };
  };
}

// The files `files` names, as they are in the checkout (a directory by every
// file under it), and package.json, which npm always adds: the one list the
// tarball must equal.
function expectedFiles(): string[] {
  const walk = (path: string): string[] =>
    readdirSync(join(ROOT, path), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(posix.join(path, e.name)) : [posix.join(path, e.name)]));
  // `dir/*.suffix`: the files of dir whose names end so (npm's glob, as used).
  const glob = (entry: string): string[] => {
    const [dir, suffix] = [posix.dirname(entry), posix.basename(entry).slice(1)];
    return readdirSync(join(ROOT, dir))
      .filter((name) => name.endsWith(suffix))
      .map((name) => posix.join(dir, name));
  };
  return [
    'package.json',
    ...pkg.files.flatMap((entry) => (entry.endsWith('/') ? walk(entry.slice(0, -1)) : entry.includes('*') ? glob(entry) : [entry])),
  ].sort();
}

// One `npm pack` for both tests (npm takes a second or more to start).
let home = '';
let npm: ReturnType<typeof npmIn>;
let packed: { filename: string; files: { path: string; mode: number }[] };
before(() => {
  home = realpathSync(mkdtempSync(join(tmpdir(), 'gsd-check-package-')));
  npm = npmIn(home);
  [packed] = JSON.parse(npm(['pack', '--json', '--pack-destination', home], ROOT).stdout) as [typeof packed];
});
after(() => rmSync(home, { recursive: true, force: true }));

test('the tarball holds the files package.json names, no more, and every link in its documents resolves inside it', () => {
  assert.equal(pkg.private, undefined, 'package.json must not be private: a registry mirror refuses a private package');
  assert.equal(packed.filename, TARBALL);
  const files = packed.files.map((f) => f.path).sort();
  assert.deepEqual(files, expectedFiles());
  // What a user of the package is promised: the licence, what each release changed, and the JSON Schemas an editor is pointed at.
  const schemas = readdirSync(join(ROOT, 'schemas')).filter((name) => name.endsWith('.schema.json'));
  assert.ok(schemas.length > 0);
  for (const promised of ['LICENSE', 'CHANGELOG.md', ...schemas.map((name) => `schemas/${name}`)])
    assert.ok(files.includes(promised), `${promised} is not in the tarball`);
  for (const [name, target] of Object.entries(pkg.bin)) {
    const entry = packed.files.find((f) => f.path === target);
    assert.ok(entry, `bin ${name} (${target}) is not in the tarball`);
    assert.equal(entry.mode & 0o111, 0o111, `bin ${name} (${target}) is not executable`);
  }
  for (const doc of files.filter((f) => f.endsWith('.md'))) {
    const text = readFileSync(join(ROOT, doc), 'utf8');
    for (const [, link] of text.matchAll(/\]\((?!https?:|mailto:|#)([^)\s#]+)/g)) {
      const target = posix.normalize(posix.join(posix.dirname(doc), link!)).replace(/\/$/, '');
      assert.ok(
        files.some((f) => f === target || f.startsWith(`${target}/`)),
        `${doc} links to ${link}, which is not in the tarball`,
      );
    }
  }
});

test('installed from the tarball with no network: gsd-check on PATH runs a gate that blocks, then passes; npx runs it too', (t) => {
  const prefix = join(home, 'prefix');
  const { env } = npm(['install', '--global', '--prefix', prefix, '--offline', join(home, TARBALL)]);

  const project = tempDir(t);
  writeFileSync(
    join(project, 'cap.json'),
    JSON.stringify({
      id: 'ready',
      gates: [{ point: 'ship:pre', check: { predicate: { kind: 'command-exit-zero', command: 'test -e ready' } }, blocking: true, onError: 'halt' }],
    }),
  );
  const gsdCheck = (args: string[]) => {
    const r = spawnSync('gsd-check', args, { cwd: project, env: { ...env, PATH: `${join(prefix, 'bin')}:${env.PATH}` }, encoding: 'utf8', timeout: 60_000 });
    return [r.status, r.stdout, r.stderr];
  };
  const gate = ['gates', 'run', '--point', 'ship:pre', '--capability', 'cap.json', '--raw', '--pick', 'message', '--exit-code'];
  assert.deepEqual(gsdCheck(gate), [1, 'ship:pre: halted by ready#0 (ready#0: command exited 1)\n', '']);
  writeFileSync(join(project, 'ready'), '');
  assert.deepEqual(gsdCheck(gate), [0, 'ship:pre: passed (1 pass)\n', '']);
  // The installed file is the committed one: nothing rewrote it on the way.
  assert.equal(
    readFileSync(join(prefix, 'lib', 'node_modules', pkg.name, pkg.bin['gsd-check']!), 'utf8'),
    readFileSync(join(ROOT, pkg.bin['gsd-check']!), 'utf8'),
  );

  const npx = npm(['exec', '--offline', '--yes', '--package', join(home, TARBALL), '--', 'gsd-check', '--version']);
  assert.match(npx.stdout, VERSION_LINE);
});

// install.md's forms for a project's devDependency, which never take the name
// to the registry to run what it holds there (gsd-check is not this project's
// name on the public registry). `--`: npx would answer --version itself.
test('a devDependency runs as ./node_modules/.bin/gsd-check and npx --no -- gsd-check; with the install gone, npx --no runs nothing', (t) => {
  const project = tempDir(t);
  writeFileSync(join(project, 'package.json'), '{ "name": "a-project", "version": "1.0.0", "private": true }\n');
  const { env } = npm(['install', '--save-dev', '--offline', join(home, TARBALL)], project);
  const [command, prefix] = npmCommand();
  const npx = (args: string[]) => {
    const cli = prefix.length === 0 ? 'npx' : command;
    const argv = prefix.length === 0 ? args : [join(dirname(prefix[0]!), 'npx-cli.js'), ...args];
    // The registry refuses at once: no retries.
    const r = spawnSync(cli, argv, { cwd: project, env: { ...env, npm_config_fetch_retries: '0' }, encoding: 'utf8', timeout: 60_000 });
    return [r.status, r.stdout];
  };
  const local = spawnSync(join(project, 'node_modules', '.bin', 'gsd-check'), ['--version'], { cwd: project, env, encoding: 'utf8', timeout: 60_000 });
  assert.equal(local.status, 0, local.stderr);
  assert.match(local.stdout, VERSION_LINE);
  assert.deepEqual(npx(['--no', '--', 'gsd-check', '--version']), [0, local.stdout]);
  rmSync(join(project, 'node_modules'), { recursive: true });
  assert.deepEqual(npx(['--no', '--', 'gsd-check', '--version']), [1, '']);
});
