import type { ProcEntry } from './proc-table.ts';

// Whether a process listing can be believed about `group`, which
// kill(-group, 0) says exists or not. A listing that shows none of a group
// the kernel says exists is stale, filtered or not ours: believed, it would
// call a live group dead, and TERM-ignoring members would outlive a timeout
// while stderr said they were ended. Such a listing is set aside and the
// kernel's word is taken.
export function believable(table: readonly ProcEntry[] | undefined, group: number, exists: boolean): readonly ProcEntry[] | undefined {
  if (table === undefined) return undefined;
  if (exists && !table.some((entry) => entry.group === group)) return undefined;
  return table;
}
