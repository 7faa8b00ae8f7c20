// How a command ended, told by a sh of the runner's own: Node cannot name a
// death by signals 32 to 64 (ProcessWrap::OnExit passes "" for them), and
// reports it as exit 0, so a sh killed by one would read as a pass. The
// command runs in an inner sh with descriptor 3 closed; the outer sh, which
// only the runner's signals reach, writes the inner's status there and exits
// with it. A status Node gives without that report is a death Node lost.

// "$0" is the shell the runner started, so the command's sh is the same one;
// "$1" is the command, passed as an argument, never as the script's text.
// The outer sh outlives the SIGTERM that ends a group (a timeout, a stop):
// it reports what that did to the command, and a command that ignores it
// still meets the SIGKILL after the grace, as the outer sh does. A trap with
// an action is reset in the command's sh, which keeps its own dispositions.
// The outer sh's stderr goes nowhere while it waits: a sh says "Terminated"
// there of a command killed by a signal, which is no output of the command's.
// So the command's sh is started with the pipe on descriptor 4 and puts it
// back on 2 itself, closing 3 and 4, then becomes the command's sh (exec).
// The outer sh never exits 0: after a pass it exits PASSED. A process that
// may take another's descriptors (pidfd_getfd) could write "0" on the outer
// sh's descriptor 3 and kill it by a signal Node reports as exit 0; that
// exit matches no report (docs/explanation/security.md says what is left).
const PASSED = 255;
const WRAPPER = `trap : TERM; exec 4>&2 2>/dev/null; "$0" -c 'exec 2>&4 4>&- 3>&-; exec "$0" -c "$1"' "$0" "$1"; s=$?; printf %s "$s" >&3; [ "$s" = 0 ] && exit ${PASSED}; exit "$s"`;

// The arguments of the runner's sh: the wrapper, then the command as data.
export const wrapperArgs = (shell: string, command: string): string[] => ['-c', WRAPPER, shell, command];

interface CommandEnding {
  readonly exitCode: number | null;
  // A name as Node gives one, or for a real-time signal as `kill -l` does.
  readonly signal: string | null;
}

// The command's ending, from Node's pair for the outer sh and the status it
// reported (undefined: none). A sh reports a death by signal N as 128+N,
// and so does `exit 128+N`: both read as the death, and both block.
export function commandEnding(code: number | null, signal: NodeJS.Signals | null, reported: string | undefined): CommandEnding {
  if (signal !== null) return { exitCode: null, signal };
  if (code === null || reported === undefined || !/^(?:0|[1-9][0-9]*)$/.test(reported)) return { exitCode: null, signal: null };
  const status = Number(reported);
  if (code !== (status === 0 ? PASSED : status)) return { exitCode: null, signal: null };
  if (status > 128 && status <= 128 + MAX_SIGNAL) return { exitCode: null, signal: signalName(status - 128) };
  return { exitCode: status, signal: null };
}

// Linux's highest signal number (SIGRTMAX); macOS has none past 31.
const MAX_SIGNAL = 64;

function signalName(n: number): string {
  // Loaded here only: node:os costs every other start its own time.
  const { constants } = require('node:os') as typeof import('node:os');
  const named = Object.entries(constants.signals).find(([, number]) => number === n)?.[0];
  if (named !== undefined) return named;
  if (n < 34) return `SIG${n}`;
  if (n === 34) return 'SIGRTMIN';
  if (n === MAX_SIGNAL) return 'SIGRTMAX';
  return n < 50 ? `SIGRTMIN+${n - 34}` : `SIGRTMAX-${MAX_SIGNAL - n}`;
}
