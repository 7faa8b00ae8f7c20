import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { errorCode } from '../fs/entry.ts';
import type { ChildPipe, Start } from './child.ts';

// A child through node:child_process, read through its streams' 'data'
// events: public, for any Node. Loaded on first use, so a command that starts
// nothing, and the binary's start through the binding (child-binding.ts),
// never pays for it.
export const childProcessStart: Start = ({ file, args, cwd, env }, events) => {
  const { spawn } = require('node:child_process') as typeof import('node:child_process');
  let child: ChildProcess;
  try {
    child = spawn(file, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
  } catch (error) {
    return events.failed(errorCode(error));
  }
  const status = child.stdio[3] as Readable | null | undefined;
  if (child.pid === undefined) {
    child.stdout?.on('error', ignore);
    child.stderr?.on('error', ignore);
    status?.on('error', ignore);
    child.once('error', (error) => events.failed(errorCode(error)));
    return;
  }
  child.on('error', ignore);
  child.once('exit', events.started({ pid: child.pid, stdout: streamPipe(child.stdout!), stderr: streamPipe(child.stderr!), status: streamPipe(status!) }));
};

export function streamPipe(stream: Readable): ChildPipe {
  let listening: { readonly onBytes: (bytes: Uint8Array) => void; readonly onEnd: () => void } | undefined;
  return {
    read(onBytes, onEnd) {
      listening = { onBytes, onEnd };
      stream.on('error', ignore);
      stream.on('data', onBytes);
      stream.once('close', onEnd);
    },
    close() {
      // Only ours: node:child_process counts the pipes' 'close' events too.
      if (listening !== undefined) {
        stream.removeListener('data', listening.onBytes);
        stream.removeListener('close', listening.onEnd);
      }
      stream.destroy();
    },
  };
}

function ignore(): void {}
