import { fstatSync, lstatSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { fail, ok, type Result } from '../failure.ts';
import { exists, isDirectory, realPath } from '../fs/entry.ts';
import { readSmallFile } from '../fs/read.ts';

// The workstream a run belongs to, by GSD 1.14's rules
// (active-workstream-store, workstream-name-policy): --ws, else
// GSD_WORKSTREAM, else the stored pointer. A name given on the command line
// or in the environment must be a workstream name, or the run is refused; a
// stored pointer that names none (or a workstream that is gone) is as good
// as no pointer, since `workstream use` may have been run long ago.
interface Workstream {
  readonly name: string;
  readonly source: '--ws' | 'GSD_WORKSTREAM' | 'pointer';
}

// GSD's rule: a letter or digit, then letters, digits, `.`, `_` and `-`,
// never `..`: one directory under `.planning/workstreams/`.
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

const isWorkstreamName = (name: string): boolean => NAME.test(name) && !name.includes('..');

const RULE = 'a workstream name is a letter or digit, then letters, digits, ".", "_" or "-" (no "..")';

// What is wrong with `name` as a workstream's, or undefined.
export const workstreamNameProblem = (name: string): string | undefined => (isWorkstreamName(name) ? undefined : RULE);

// Where `gsd workstream use` leaves its pointer when it knows which agent
// session it runs in: one file per session, under the system's temp
// directory, in a folder named for the planning directory. The variables GSD
// reads, in its order.
const SESSION_VARIABLES = [
  'GSD_SESSION_KEY',
  'CODEX_THREAD_ID',
  'CLAUDE_SESSION_ID',
  'CLAUDE_CODE_SESSION_ID',
  'CLAUDE_CODE_SSE_PORT',
  'OPENCODE_SESSION_ID',
  'GEMINI_SESSION_ID',
  'CURSOR_SESSION_ID',
  'WINDSURF_SESSION_ID',
  'TERM_SESSION_ID',
  'WT_SESSION',
  'TMUX_PANE',
  'ZELLIJ_SESSION_NAME',
] as const;

type Env = Readonly<Record<string, string | undefined>>;

// The workstream, and a warning for a session pointer that was ignored.
interface Resolved {
  readonly workstream: Workstream | undefined;
  readonly warnings: readonly string[];
}

// `uid`: who we run as, for the owner rule of session pointers; undefined
// where the platform has no owners.
// `flag`: --ws as the command line gave it, a name the rule holds.
export function resolveWorkstream(flag: string | undefined, projectRoot: string, env: Env, uid: number | undefined): Result<Resolved> {
  if (flag !== undefined) return ok({ workstream: { name: flag, source: '--ws' }, warnings: [] });
  const given = env.GSD_WORKSTREAM?.trim();
  if (given !== undefined && given !== '') {
    if (!isWorkstreamName(given)) return fail('usage', `GSD_WORKSTREAM ${JSON.stringify(env.GSD_WORKSTREAM)}: ${RULE}`);
    return ok({ workstream: { name: given, source: 'GSD_WORKSTREAM' }, warnings: [] });
  }
  const warnings: string[] = [];
  const stored = storedWorkstream(projectRoot, env, uid, warnings);
  return ok({ workstream: stored === undefined ? undefined : { name: stored, source: 'pointer' }, warnings });
}

// The session's own pointer when the session has one (even a stale one: a
// session that chose a workstream never falls back to another's choice),
// else the project's shared `.planning/active-workstream`. A session pointer
// someone else could have written is no pointer: the temp directory is
// shared, and a pointer chooses the workstream whose gates decide.
function storedWorkstream(projectRoot: string, env: Env, uid: number | undefined, warnings: string[]): string | undefined {
  const session = sessionKey(env);
  const sessions = join(tmpdir(env), 'gsd-workstream-sessions');
  // Most runs have no session pointers at all: then the hash is not worth
  // loading node:crypto for.
  if (session !== undefined && isDirectory(sessions)) {
    const own = sessionPointer(sessionPointerOf(projectRoot, session, sessions), uid, warnings);
    if (own !== undefined) return existing(projectRoot, own);
  }
  const shared = pointerValue(join(projectRoot, '.planning', 'active-workstream'));
  return shared === undefined ? undefined : existing(projectRoot, shared);
}

// A session pointer's text when it is there and nobody else could have
// written it: the pointer and each directory between it and the temp
// directory are this user's or root's, and neither group nor others may
// write them (the code cache's rule). The directories are judged as
// themselves (a link is its maker's), the file by its open descriptor, so
// what is read is what was judged.
function sessionPointer(pointer: SessionPointer, uid: number | undefined, warnings: string[]): string | undefined {
  if (!isEntry(pointer.file)) return undefined;
  let problem =
    uid === undefined ? undefined : [pointer.sessions, pointer.project].map((dir) => untrusted(dir, lstatOf(dir), uid)).find((why) => why !== undefined);
  const text =
    problem === undefined
      ? readSmallFile(pointer.file, (fd) => (problem = uid === undefined ? undefined : untrusted(pointer.file, fstatSync(fd), uid)))?.trim()
      : undefined;
  if (problem !== undefined) warnings.push(`the session pointer ${pointer.file} is ignored: ${problem}`);
  return text === undefined || text === '' ? undefined : text;
}

function isEntry(path: string): boolean {
  return lstatOf(path) !== undefined;
}

function lstatOf(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

// Why `path` may hold what someone else wrote, or undefined when it cannot.
function untrusted(path: string, stats: Stats | undefined, uid: number): string | undefined {
  if (stats === undefined) return `${path} cannot be examined`;
  if (stats.isSymbolicLink()) return `${path} is a symbolic link`;
  if (stats.uid !== uid && stats.uid !== 0) return `${path} belongs to uid ${stats.uid}, not to this user or root`;
  const writers = [(stats.mode & 0o020) !== 0 && 'its group', (stats.mode & 0o002) !== 0 && 'others'].filter(Boolean);
  if (writers.length > 0) return `${path} may be written by ${writers.join(' and ')}`;
  return undefined;
}

// GSD's test is that something is there, a directory or not: a pointer to a
// regular file still names the workstream the command is told of.
function existing(projectRoot: string, name: string): string | undefined {
  return isWorkstreamName(name) && exists(join(projectRoot, '.planning', 'workstreams', name)) ? name : undefined;
}

function pointerValue(file: string): string | undefined {
  const text = readSmallFile(file)?.trim();
  return text === undefined || text === '' ? undefined : text;
}

// GSD's session key: the first of its variables that holds something once
// reduced to `[A-Za-z0-9._-]`, as `<variable in kebab case>-<value>`; else
// the terminal (TTY or SSH_TTY) as `tty-<name>`.
export function sessionKey(env: Env): string | undefined {
  for (const variable of SESSION_VARIABLES) {
    const token = sessionToken(env[variable]);
    if (token !== undefined) return `${variable.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${token}`;
  }
  for (const variable of ['TTY', 'SSH_TTY']) {
    const token = sessionToken(env[variable]);
    if (token !== undefined) return `tty-${token.replace(/^dev_/, '')}`;
  }
  return undefined;
}

function sessionToken(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const token = value
    .trim()
    .replace(/[^a-zA-Z0-9._-]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return token === '' ? undefined : token.slice(0, 160);
}

// Node's os.tmpdir() on POSIX, from the given environment rather than ours.
function tmpdir(env: Env): string {
  const dir = env.TMPDIR || env.TMP || env.TEMP || '/tmp';
  return dir.length > 1 && dir.endsWith('/') ? dir.slice(0, -1) : dir;
}

interface SessionPointer {
  readonly sessions: string;
  readonly project: string;
  readonly file: string;
}

// <tmpdir>/gsd-workstream-sessions/<first 16 hex of sha1(planning dir's real path)>/<key>.
function sessionPointerOf(projectRoot: string, key: string, sessions: string): SessionPointer {
  const planning = join(projectRoot, '.planning');
  // Loaded here only: node:crypto costs every other run start-up time.
  const { createHash } = require('node:crypto') as typeof import('node:crypto');
  const project = join(
    sessions,
    createHash('sha1')
      .update(realPath(planning) ?? planning)
      .digest('hex')
      .slice(0, 16),
  );
  return { sessions, project, file: join(project, key) };
}
