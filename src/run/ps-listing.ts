import { spawnSync } from 'node:child_process';
import type { ProcEntry } from './proc-table.ts';

// Every process `ps` shows, with its group and session; undefined when ps
// fails or does not show us (`self`), so that it cannot be believed.
export function psListing(self: number, program: string): ProcEntry[] | undefined {
  const ps = spawnSync(program, ['-A', '-o', 'pid=', '-o', 'pgid=', '-o', 'sess=', '-o', 'stat='], { encoding: 'latin1', stdio: ['ignore', 'pipe', 'ignore'] });
  if (ps.status !== 0 || typeof ps.stdout !== 'string') return undefined;
  const entries: ProcEntry[] = [];
  for (const line of ps.stdout.split('\n')) {
    const [pid, group, session, state] = line.trim().split(/\s+/);
    if (state === undefined) continue;
    entries.push({ pid: Number(pid), group: Number(group), session: Number(session), gone: state.startsWith('Z') || state.startsWith('X') });
  }
  return entries.some((entry) => entry.pid === self) ? entries : undefined;
}
