import { statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { fail, ok, type Result } from '../failure.ts';
import { entryKind, findOnPath } from '../fs/entry.ts';
import { isJsonObject, parseJson } from '../json/parse.ts';
import type { GateContext } from '../predicate/kind.ts';
import { quoted } from '../text/shell.ts';

// The GSD that decides a run: the one named (--gsd, the recipes' way to name
// the lockfile's GSD), else the one `gsd_run` finds, in the order GSD 1.14's
// skills carry in their preamble: a gsd-tools.cjs at the top of the checkout
// (RUNTIME_DIR, else git's top level, else the working directory) or in its
// .claude/ or .codex/, then `gsd_run` on PATH (and `gsd-tools`, which older
// preambles looked for there), then the agents' own homes; and last, where
// a project that pins GSD as a devDependency has it, its node_modules/.bin.
// gsd-check asks that one to render hooks and answer queries, so that the
// GSD that decides is the one the workflows would run.

export interface Gsd {
  // The file run: a gsd-tools.cjs, run by the node on PATH as the preamble
  // runs it, or a launcher on PATH, run itself.
  readonly path: string;
  readonly how: 'node' | 'exec';
  // Where it was found, in words: `<top>/gsd-core/bin/`, `gsd_run on PATH`.
  readonly found: string;
}

// The npm package GSD ships as.
export const GSD_PACKAGE = '@opengsd/gsd-core';
const TOOLS = 'gsd-tools.cjs';
const BIN = join('gsd-core', 'bin', TOOLS);

// Where the top of the checkout is, found by `git rev-parse --show-toplevel`
// (the caller runs it), when RUNTIME_DIR does not say.
export function runtimeRoot(env: Readonly<Record<string, string | undefined>>, gitTopLevel: string | undefined, cwd: string): string {
  const given = env.RUNTIME_DIR;
  if (given !== undefined && given !== '') return given;
  return gitTopLevel ?? cwd;
}

// Where the search looks, in words, for a message that found nothing.
export const SEARCHED = "the top level's gsd-core/, .claude/ or .codex/, gsd_run or gsd-tools on PATH, the agents' homes, the project's node_modules/.bin";

export function locateGsd(root: string, env: Readonly<Record<string, string | undefined>>, projectRoot: string = root): Gsd | undefined {
  for (const dir of ['', '.claude', '.codex']) {
    const path = join(root, dir, BIN);
    if (isFile(path)) return { path, how: 'node', found: join(root, dir, 'gsd-core', 'bin') };
  }
  for (const launcher of ['gsd_run', 'gsd-tools']) {
    const path = findOnPath(launcher, env.PATH);
    if (path !== undefined) return { path, how: 'exec', found: `${launcher} on PATH` };
  }
  for (const dir of agentHomes(env)) {
    const path = join(dir, BIN);
    if (isAbsolute(path) && isFile(path)) return { path, how: 'node', found: join(dir, 'gsd-core', 'bin') };
  }
  for (const dir of new Set([root, projectRoot])) {
    const path = join(dir, 'node_modules', '.bin', 'gsd-tools');
    if (isFile(path)) return { path, how: 'node', found: join(dir, 'node_modules', '.bin') };
  }
  return undefined;
}

const GIT_TIMEOUT_MS = 10_000;

// The GSD named (`named`: --gsd as given, and its path as argumentPath made
// it) or else found from the project root, where GSD's workflows run
// gsd_run; none where nothing is found.
interface NamedGsd {
  readonly given: string;
  readonly path: string;
}

export async function findGsd(context: GateContext, named: NamedGsd | undefined): Promise<Result<Gsd | undefined>> {
  if (named !== undefined) {
    const { given, path } = named;
    if (entryKind(path) !== 'file')
      return fail('usage', `--gsd ${given}: no such file (give GSD's gsd-tools.cjs, or the node_modules/.bin/gsd-tools npm links to it)`);
    return ok({ path, how: /\.c?js$/.test(basename(path)) || basename(path) === 'gsd-tools' ? 'node' : 'exec', found: '--gsd' });
  }
  const git = await context.run({
    command: 'git rev-parse --show-toplevel',
    cwd: context.projectRoot,
    env: context.env,
    timeoutMs: GIT_TIMEOUT_MS,
    killAfterMs: context.killAfterMs,
    signal: context.signal,
    force: context.force,
    keepStdout: 64 * 1024,
  });
  const top = git.status === 'ended' && git.exitCode === 0 && git.stdout?.complete === true ? git.stdout.text.trim() : '';
  return ok(locateGsd(runtimeRoot(context.env, top === '' ? undefined : top, context.projectRoot), context.env, context.projectRoot));
}

// The agents' homes, in the preamble's order, each overridden by its own
// variable as the preamble reads it: sh's `${VAR:-$HOME/.dir}`, text joined
// as sh joins it, so that HOME unset or empty gives `/.dir`, where the
// preamble looks, and not a path relative to wherever gsd-check runs.
export function agentHomes(env: Readonly<Record<string, string | undefined>>): string[] {
  const home = env.HOME ?? '';
  const config = env.XDG_CONFIG_HOME || `${home}/.config`;
  const dir = (variable: string, fallback: string): string => env[variable] || fallback;
  return [
    dir('CLAUDE_CONFIG_DIR', `${home}/.claude`),
    dir('HERMES_HOME', `${home}/.hermes`),
    dir('CURSOR_CONFIG_DIR', `${home}/.cursor`),
    dir('CODEX_HOME', `${home}/.codex`),
    dir('GEMINI_CONFIG_DIR', `${home}/.gemini`),
    dir('COPILOT_CONFIG_DIR', `${home}/.copilot`),
    dir('WINDSURF_CONFIG_DIR', `${home}/.codeium/windsurf`),
    dir('AUGMENT_CONFIG_DIR', `${home}/.augment`),
    dir('TRAE_CONFIG_DIR', `${home}/.trae`),
    dir('QWEN_CONFIG_DIR', `${home}/.qwen`),
    dir('CODEBUDDY_CONFIG_DIR', `${home}/.codebuddy`),
    dir('CLINE_CONFIG_DIR', `${home}/.cline`),
    dir('GROK_AGENTS_HOME', `${home}/.agents`),
    dir('ANTIGRAVITY_CONFIG_DIR', `${home}/.gemini/antigravity`),
    dir('OPENCODE_CONFIG_DIR', `${config}/opencode`),
    dir('KILO_CONFIG_DIR', `${config}/kilo`),
  ];
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

// The command line that runs it for sh, the arguments after it as given:
// every value quoted, so nothing in a path runs.
export function gsdCommand(gsd: Gsd, args: string): string {
  return gsd.how === 'node' ? `node ${quoted(gsd.path)} ${args}` : `${quoted(gsd.path)} ${args}`;
}

// A GSD older than the runtime-identity verb (1.11.0 answers "Unknown
// command"): the version its package says, beside the file found (through
// links, as npm's bin links lead), so that a warning can still name it.
export function packageVersion(file: string, read: (path: string) => string | undefined): string | undefined {
  for (const up of ['../../package.json', '../../../package.json']) {
    const text = read(join(dirname(file), up));
    if (text === undefined) continue;
    const parsed = parseJson(text, 'package.json');
    if (parsed.ok && isJsonObject(parsed.value) && parsed.value.name === GSD_PACKAGE && typeof parsed.value.version === 'string') return parsed.value.version;
  }
  return undefined;
}
