import type { ProcEntry } from './proc-table.ts';

// The process groups of session `session` other than the group of the same
// id, with a member still running: where children that changed their group
// (`set -m`, setpgid, setpgrp) live. A group never spans two sessions, so
// signalling these reaches nobody outside the session.
export function sessionGroups(table: readonly ProcEntry[], session: number): number[] {
  const groups = new Set<number>();
  for (const entry of table) {
    if (entry.session === session && entry.group !== session && !entry.gone) groups.add(entry.group);
  }
  return [...groups];
}
