// Runs one generated case through the real GSD and through gsd-check, each
// in its own fresh copy of the case's tree, both at once, and reduces each
// answer to what a workflow can tell from it.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GSD_CHECK, GSD_TOOLS, NODE, environment, run, writeTree } from '../harness.mjs';

// The artifact nobody has: a `check predicate` call that only looks the
// phase up, so that its details say what matched.
const LOOKUP = JSON.stringify({ kind: 'artifact-frontmatter-equals', artifact: 'NO-SUCH-ARTIFACT.md', field: 'x', equals: 0 });

function argvs(c) {
  if (c.family === 'state') return { gsd: [NODE, GSD_TOOLS, 'state-snapshot', '--raw'], check: [NODE, GSD_CHECK, 'check', 'predicate', ...c.argv] };
  if (c.family === 'find-phase') {
    return {
      gsd: [NODE, GSD_TOOLS, 'find-phase', ...c.argv, '--raw'],
      check: [NODE, GSD_CHECK, 'check', 'predicate', '--predicate', LOOKUP, '--phase-number', ...c.argv, '--pick', 'details.phaseDirLookup', '--raw'],
    };
  }
  // A case of a line form carries its whole command line.
  const line = c.line ?? ['check', 'predicate', ...c.argv];
  return { gsd: [NODE, GSD_TOOLS, ...line], check: [NODE, GSD_CHECK, ...line] };
}

function envelopeOf(stdout) {
  try {
    const parsed = JSON.parse(stdout);
    return parsed !== null && typeof parsed === 'object' && typeof parsed.block === 'boolean' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

// pass / block (an envelope, or `--pick block`'s bare value), output (exit 0
// with anything else: help text, a picked field), error (a non-zero exit).
function verdictOf(result) {
  if (result.status !== 0) return 'error';
  let parsed;
  try {
    parsed = JSON.parse(result.stdout);
  } catch {
    return 'output';
  }
  if (parsed !== null && typeof parsed === 'object' && typeof parsed.block === 'boolean') return parsed.block ? 'block' : 'pass';
  if (typeof parsed === 'boolean') return parsed ? 'block' : 'pass';
  return 'output';
}

// The phase directory each tool's lookup settled on, relative to the project
// root ('' for none): GSD prints it; gsd-check searches it when exactly one
// directory matched.
function lookedUp(tool, result, root) {
  if (result.status !== 0) return `error ${result.status}`;
  if (tool === 'gsd') return result.stdout.trim();
  const lookup = JSON.parse(result.stdout);
  if (lookup.matches.length !== 1) return '';
  const project = `${root}/p/`;
  return lookup.matches[0].startsWith(project) ? lookup.matches[0].slice(project.length) : lookup.matches[0];
}

// The phase each tool named, 'no phase', or 'error': GSD prints
// state-snapshot's `current_phase` (null for none; an `error` field when
// there is no STATE.md); gsd-check's command wrote the PHASE_NUMBER it was
// given, or the call failed, saying so when STATE.md names no phase.
function statePhase(tool, result, phaseFile) {
  if (tool === 'gsd') {
    if (result.status !== 0) return 'error';
    let snapshot;
    try {
      snapshot = JSON.parse(result.stdout);
    } catch {
      return 'error';
    }
    if (snapshot === null || typeof snapshot !== 'object' || 'error' in snapshot) return 'error';
    return snapshot.current_phase === null ? 'no phase' : `phase ${snapshot.current_phase}`;
  }
  if (result.status === 0 && existsSync(phaseFile)) return `phase ${readFileSync(phaseFile, 'utf8')}`;
  return result.status === 2 && / names no phase: /.test(result.stderr) ? 'no phase' : 'error';
}

// `cache`: a private directory both tools keep their compiled code in across
// cases (Node's compile cache, gsd-check's own under XDG_CACHE_HOME), which
// changes nothing they answer and takes a third off each start. `signal`
// stops both tools.
export async function runCase(c, cache, signal) {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'gsd-fuzz-')));
  try {
    const commands = argvs(c);
    const entries = await Promise.all(
      ['gsd', 'check'].map(async (tool) => {
        const root = join(base, tool);
        mkdirSync(root);
        writeTree(root, c.tree);
        const home = join(root, 'home');
        mkdirSync(home, { recursive: true });
        const ranInFile = join(base, `${tool}.ran-in`);
        const phaseFile = join(base, `${tool}.phase`);
        const caches = cache === undefined ? {} : { NODE_COMPILE_CACHE: join(cache, 'node'), XDG_CACHE_HOME: join(cache, 'xdg') };
        const env = environment(home, { ...caches, COMPAT_RAN_IN: ranInFile, COMPAT_PHASE_OUT: phaseFile, ...c.env });
        const result = await run(commands[tool], { cwd: join(root, c.cwd), env, timeoutMs: 30_000, signal });
        const ranIn = existsSync(ranInFile) ? relativeTo(root, readFileSync(ranInFile, 'utf8').trim()) : null;
        const answer = { status: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr, ranIn };
        answer.verdict =
          c.family === 'find-phase' ? lookedUp(tool, result, root) : c.family === 'state' ? statePhase(tool, result, phaseFile) : verdictOf(result);
        answer.envelope = envelopeOf(result.stdout);
        // `--pick` prints one field: the envelope it was picked from comes
        // from the same call without it, for the classifiers.
        const pick = commands[tool].indexOf('--pick');
        if (c.family !== 'find-phase' && pick !== -1 && result.status === 0) {
          const whole = [...commands[tool].slice(0, pick), ...commands[tool].slice(pick + 2)];
          answer.envelope = envelopeOf((await run(whole, { cwd: join(root, c.cwd), env, timeoutMs: 30_000, signal })).stdout);
        }
        return [tool, answer];
      }),
    );
    return Object.fromEntries(entries);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

function relativeTo(root, path) {
  if (path === root) return '.';
  return path.startsWith(`${root}/`) ? path.slice(root.length + 1) : path;
}

// Where the two answers part: the verdict, the directory a command ran in,
// whether the envelope blocks (under `--pick message` too), or, for `--pick
// details`, the value printed.
export function differs(c, gsd, check) {
  if (gsd.verdict !== check.verdict || gsd.ranIn !== check.ranIn) return true;
  if (gsd.envelope !== undefined && check.envelope !== undefined && gsd.envelope.block !== check.envelope.block) return true;
  return c.meta.form === 'pick-details' && gsd.status === 0 && gsd.stdout.trim() !== check.stdout.trim();
}
