import { statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { findOnPath } from '../fs/entry.ts';
import { quoted } from '../text/shell.ts';

// The GSD that `gsd_run` finds, in the order GSD 1.14's skills carry in their
// preamble: a gsd-tools.cjs at the top of the checkout (RUNTIME_DIR, else
// git's top level, else the working directory) or in its .claude/ or .codex/,
// then `gsd_run` on PATH (and `gsd-tools`, which older preambles looked for
// there), then the agents' own homes. gsd-check asks that one to render
// hooks and answer queries, so that the GSD that decides is the one the
// workflows would run.

export interface Gsd {
  // The file run: a gsd-tools.cjs, run by the node on PATH as the preamble
  // runs it, or a launcher on PATH, run itself.
  readonly path: string;
  readonly how: 'node' | 'exec';
  // Where it was found, in words: `<top>/gsd-core/bin/`, `gsd_run on PATH`.
  readonly found: string;
}

const TOOLS = 'gsd-tools.cjs';
const BIN = join('gsd-core', 'bin', TOOLS);

// Where the top of the checkout is, found by `git rev-parse --show-toplevel`
// (the caller runs it), when RUNTIME_DIR does not say.
export function runtimeRoot(env: Readonly<Record<string, string | undefined>>, gitTopLevel: string | undefined, cwd: string): string {
  const given = env.RUNTIME_DIR;
  if (given !== undefined && given !== '') return given;
  return gitTopLevel ?? cwd;
}

export function locateGsd(root: string, env: Readonly<Record<string, string | undefined>>): Gsd | undefined {
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
  return undefined;
}

// The agents' homes, in the preamble's order, each overridden by its own
// variable as the preamble reads it.
function agentHomes(env: Readonly<Record<string, string | undefined>>): string[] {
  const home = env.HOME ?? '';
  const config = env.XDG_CONFIG_HOME || join(home, '.config');
  const dir = (variable: string, fallback: string): string => env[variable] || fallback;
  return [
    dir('CLAUDE_CONFIG_DIR', join(home, '.claude')),
    dir('HERMES_HOME', join(home, '.hermes')),
    dir('CURSOR_CONFIG_DIR', join(home, '.cursor')),
    dir('CODEX_HOME', join(home, '.codex')),
    dir('GEMINI_CONFIG_DIR', join(home, '.gemini')),
    dir('COPILOT_CONFIG_DIR', join(home, '.copilot')),
    dir('WINDSURF_CONFIG_DIR', join(home, '.codeium', 'windsurf')),
    dir('AUGMENT_CONFIG_DIR', join(home, '.augment')),
    dir('TRAE_CONFIG_DIR', join(home, '.trae')),
    dir('QWEN_CONFIG_DIR', join(home, '.qwen')),
    dir('CODEBUDDY_CONFIG_DIR', join(home, '.codebuddy')),
    dir('CLINE_CONFIG_DIR', join(home, '.cline')),
    dir('GROK_AGENTS_HOME', join(home, '.agents')),
    dir('ANTIGRAVITY_CONFIG_DIR', join(home, '.gemini', 'antigravity')),
    dir('OPENCODE_CONFIG_DIR', join(config, 'opencode')),
    dir('KILO_CONFIG_DIR', join(config, 'kilo')),
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
