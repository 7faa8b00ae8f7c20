// gsd-check's public surface, as far as it can be read from the lists that
// make it (docs/maintainers/versioning.md says what else is in it): the
// commands, flags and their values, exit statuses, stop signals, the
// --json-errors reasons, the kinds and the envelope's details fields, the
// Action's inputs, outputs and runtime, the pre-commit hooks, the JSON
// Schemas, the Node it needs. release/surface.json holds it as the last
// release made it; a change since must be named in CHANGELOG.md's
// Unreleased section, and writing the file anew for a release needs the
// version bump semver asks of the changes (a removal or a changed meaning
// is major, an addition minor), so that neither can go unsaid.
//   node release/surface.mjs            check the tree against release/surface.json
//   node release/surface.mjs --write    write it for package.json's version (a release)
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { section } from './changelog.mjs';

export const SURFACE_FILE = 'release/surface.json';

// The lists, from src/ as the build bundles it: esbuild (as build.mjs runs
// it for the schemas and action.yml), since plain Node cannot import src/'s
// TypeScript.
const ENTRY = `
export { FLAGS } from './src/cli/flag-table.ts';
export { REPORT_KINDS, EXIT_CONTRACTS } from './src/cli/flag.ts';
export { COMMANDS, COMMAND_PREFIX, SHELLS } from './src/cli/command-table.ts';
export { EXIT_NO, EXIT_FAILURE, EXIT_INTERNAL, EXIT_WRITE_FAILED, REASONS, STOP_SIGNALS } from './src/failure.ts';
export { ACTION_INPUTS } from './src/action/inputs.ts';
export { ACTION_OUTPUTS } from './src/action/outputs.ts';
export { actionYaml } from './src/action/metadata.ts';
export { KINDS } from './src/kinds/table.ts';
export { RUN_DETAILS } from './src/gates/run-envelope.ts';
export { POINT_DETAILS } from './src/gates/run-point.ts';
export { LOOP_POINTS } from './src/gates/activation.ts';
`;

async function lists(root) {
  const { build } = await import('esbuild');
  const bundle = await build({
    stdin: { contents: ENTRY, resolveDir: root, loader: 'ts' },
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    write: false,
    logLevel: 'warning',
  });
  const module = await import(`data:text/javascript;base64,${Buffer.from(bundle.outputFiles[0].text).toString('base64')}`);
  // A TypeScript module may export only types, so esbuild drops a re-export
  // of a name the module no longer has without an error: refuse it here.
  const named = [...ENTRY.matchAll(/export \{([^}]*)\}/g)].flatMap((m) => m[1].split(',').map((name) => name.trim()));
  const missing = named.filter((name) => module[name] === undefined);
  if (missing.length > 0) throw new Error(`release/surface.mjs: src/ no longer exports ${missing.join(', ')} where ENTRY says`);
  return module;
}

// One entry a thing a user relies on: what it is (`item`), the name a
// changelog calls it by (`name`, written in backticks there), what it
// belongs to (`of`), and what about it may not change (`value`). A JSON
// Schema is held by its hash, so any change to it shows; whether the change
// is breaking is the maintainer's judgement (`judged`).
export async function publicSurface(root) {
  const l = await lists(root);
  const entries = [];
  const add = (item, name, value = true, of = undefined) => entries.push({ item, name, ...(of === undefined ? {} : { of }), value });
  add('command prefix', l.COMMAND_PREFIX);
  for (const c of l.COMMANDS) {
    add('command', c.name, { operands: c.operands ?? null });
    for (const alias of c.aliases) add('command alias', alias, c.name);
  }
  for (const shell of l.SHELLS) add('completion shell', shell);
  for (const f of l.FLAGS) {
    const name = `--${f.name}`;
    add('flag', name, {
      takes: f.hint === undefined ? 'nothing' : f.repeatable === true ? 'a value, repeatable' : 'a value',
      default: f.default ?? null,
      trimsJoinedValue: f.trimsJoined === true,
    });
    for (const command of f.commands === 'any' ? ['any command'] : f.commands) add('flag of', name, true, command);
    for (const spelling of [...(f.short === undefined ? [] : [`-${f.short}`]), ...(f.spellings ?? [])]) add('flag spelling', spelling, name);
  }
  for (const kind of l.REPORT_KINDS) add('flag value', '--report', true, kind);
  for (const contract of l.EXIT_CONTRACTS) add('flag value', '--exit-contract', true, contract);
  for (const point of l.LOOP_POINTS) add('loop point', point);
  // An exit status is its number: the constants that name it in the code are
  // not public (two of 1.0.0's became one, EXIT_NO, with the same meaning).
  const statuses = [l.EXIT_NO, l.EXIT_FAILURE, l.EXIT_INTERNAL, l.EXIT_WRITE_FAILED];
  for (const status of [...new Set(statuses)].sort((a, b) => a - b)) add('exit status', `exit ${status}`);
  for (const signal of l.STOP_SIGNALS) add('stop signal', signal, 'exit 128+N');
  for (const [reason, { exitStatus, onError }] of Object.entries(l.REASONS)) add('reason', reason, { exitStatus, onErrorMaySkip: onError });
  for (const [kind, { details }] of l.KINDS) {
    add('kind', kind);
    for (const [field, shape] of Object.entries(details)) add('envelope field', `details.${field}`, shape, kind);
  }
  for (const [envelope, details] of [
    ['gates run, one point', l.POINT_DETAILS],
    ['gates run, several points', l.RUN_DETAILS],
  ]) {
    for (const [field, shape] of Object.entries(details)) add('envelope field', `details.${field}`, shape, envelope);
  }
  for (const input of l.ACTION_INPUTS) add('Action input', `inputs.${input.name}`, { shape: input.shape, default: input.default ?? null });
  for (const output of l.ACTION_OUTPUTS) add('Action output', `outputs.${output.name}`);
  add('Action runtime', 'runs.using', /^ {2}using: "(.+)"$/m.exec(l.actionYaml())?.[1] ?? null);
  for (const [, id] of readFileSync(join(root, '.pre-commit-hooks.yaml'), 'utf8').matchAll(/^- id: (\S+)\s*$/gm)) add('pre-commit hook', id);
  for (const file of readdirSync(join(root, 'schemas'))
    .filter((f) => f.endsWith('.schema.json'))
    .sort()) {
    add(
      'JSON Schema',
      `schemas/${file}`,
      createHash('sha256')
        .update(readFileSync(join(root, 'schemas', file)))
        .digest('hex')
        .slice(0, 16),
    );
  }
  add('Node', 'engines.node', JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines?.node ?? null);
  return entries;
}

const keyOf = (e) => JSON.stringify([e.item, e.name, e.of ?? null]);
const JUDGED = new Set(['JSON Schema']);
const said = (e) => `${e.item} \`${e.name}\`${e.of === undefined ? '' : ` (${e.of})`}`;

// What differs between two surfaces: { entry, change: added | removed |
// changed }, in the later surface's order, then the removed.
export function surfaceChanges(before, after) {
  const was = new Map(before.map((e) => [keyOf(e), e]));
  const now = new Set(after.map(keyOf));
  const changes = [];
  for (const e of after) {
    const old = was.get(keyOf(e));
    if (old === undefined) changes.push({ entry: e, change: 'added' });
    else if (JSON.stringify(old.value) !== JSON.stringify(e.value)) changes.push({ entry: e, change: 'changed' });
  }
  for (const e of before) if (!now.has(keyOf(e))) changes.push({ entry: e, change: 'removed' });
  return changes;
}

// The least bump the changes need: a removal, or a changed value that is
// not left to judgement, breaks what relied on it.
export function bumpNeeded(changes) {
  if (changes.some((c) => c.change === 'removed' || (c.change === 'changed' && !JUDGED.has(c.entry.item)))) return 'major';
  return changes.length > 0 ? 'minor' : 'patch';
}

const core = (version) => /^(\d+)\.(\d+)\.(\d+)/.exec(version)?.slice(1, 4).map(Number);

// Whether `to` is at least the bump `needed` above `from`.
export function bumpedEnough(from, to, needed) {
  const [a, b] = [core(from), core(to)];
  if (needed === 'major') return b[0] > a[0];
  if (needed === 'minor') return b[0] > a[0] || (b[0] === a[0] && b[1] > a[1]);
  return b[0] > a[0] || (b[0] === a[0] && (b[1] > a[1] || (b[1] === a[1] && b[2] > a[2])));
}

// The changes a changelog section does not name (each by its name in backticks).
export const unnamed = (changes, text) => changes.filter((c) => !(text ?? '').includes(`\`${c.entry.name}\``));

const count = (changes) => `${changes.length} change${changes.length === 1 ? '' : 's'}`;
const describe = (changes) => changes.map((c) => `  ${said(c.entry)}: ${c.change}`).join('\n');

// The check and the write, as the command line runs them: { ok, lines }.
export async function surfaceCommand(root, write) {
  const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
  const changelog = readFileSync(join(root, 'CHANGELOG.md'), 'utf8');
  const recorded = JSON.parse(readFileSync(join(root, SURFACE_FILE), 'utf8'));
  const current = await publicSurface(root);
  const changes = surfaceChanges(recorded.surface, current);
  if (!write) {
    if (recorded.version !== version) {
      return {
        ok: false,
        lines: [
          `${SURFACE_FILE} is the surface of ${recorded.version}, but package.json's version is ${version}: a release writes it (node release/surface.mjs --write)`,
        ],
      };
    }
    const missing = unnamed(changes, section(changelog, 'Unreleased'));
    if (missing.length > 0) {
      return {
        ok: false,
        lines: [
          `the public surface changed since ${recorded.version} (${SURFACE_FILE}) in what CHANGELOG.md's Unreleased section does not name, in backticks:`,
          describe(missing),
        ],
      };
    }
    return {
      ok: true,
      lines: [
        changes.length === 0
          ? `the public surface is ${recorded.version}'s`
          : `${count(changes)} since ${recorded.version}, each named in CHANGELOG.md's Unreleased section:\n${describe(changes)}`,
      ],
    };
  }
  if (recorded.version === version) {
    if (changes.length === 0) return { ok: true, lines: [`${SURFACE_FILE} is already ${version}'s`] };
    return {
      ok: false,
      lines: [`${SURFACE_FILE} is already ${version}'s, and the surface has changed since: bump package.json's version first`, describe(changes)],
    };
  }
  const needed = bumpNeeded(changes);
  if (!bumpedEnough(recorded.version, version, needed)) {
    return {
      ok: false,
      lines: [`${recorded.version} -> ${version} is not a ${needed} release, which these changes need (docs/maintainers/versioning.md):`, describe(changes)],
    };
  }
  const released = section(changelog, version);
  if (released === undefined)
    return { ok: false, lines: [`CHANGELOG.md has no section for ${version}: move the Unreleased entries under ## [${version}] - <date> first`] };
  const missing = unnamed(changes, released);
  if (missing.length > 0) return { ok: false, lines: [`CHANGELOG.md's ${version} section does not name, in backticks:`, describe(missing)] };
  writeFileSync(join(root, SURFACE_FILE), surfaceText(version, current));
  return { ok: true, lines: [`${SURFACE_FILE}: the surface of ${version} (${needed} release: ${count(changes)} since ${recorded.version})`] };
}

// Why `version` cannot be released from this tree, or undefined: its record
// must be written, and the surface still be the one recorded.
export async function releaseRefusal(root, version) {
  const recorded = JSON.parse(readFileSync(join(root, SURFACE_FILE), 'utf8'));
  if (recorded.version !== version)
    return `${SURFACE_FILE} is the surface of ${recorded.version}, not of ${version}: node release/surface.mjs --write, and commit it`;
  const changes = surfaceChanges(recorded.surface, await publicSurface(root));
  if (changes.length > 0)
    return `the public surface changed since ${SURFACE_FILE} was written for ${version}: bump the version, then node release/surface.mjs --write\n${describe(changes)}`;
  return undefined;
}

// One entry a line, so that a change to the file reads as the change.
export const surfaceText = (version, entries) =>
  `{"version": ${JSON.stringify(version)}, "surface": [\n${entries.map((e) => JSON.stringify(e)).join(',\n')}\n]}\n`;

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args.length > 1 || (args.length === 1 && args[0] !== '--write')) {
    console.error(`surface: usage: node release/surface.mjs [--write] (not ${args.join(' ')})`);
    process.exitCode = 2;
  } else {
    const { ok, lines } = await surfaceCommand(resolve('.'), args[0] === '--write');
    (ok ? console.log : console.error)(
      lines
        .join('\n')
        .split('\n')
        .map((line) => `surface: ${line}`)
        .join('\n'),
    );
    process.exitCode = ok ? 0 : 1;
  }
}
