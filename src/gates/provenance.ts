import type { LoopPoint } from './activation.ts';

// Where a run's gates came from, as its envelope says it: which points the
// loop had reached (--reached), and which GSD decided (--render, --builtin).

// What --reached read and decided: the phase, where it came from, STATE.md's
// status, and every point considered, reached or not, with why.
export interface LoopDetails {
  readonly phase: string | null;
  readonly from: string;
  readonly status: string | null;
  readonly rawStatus: string | null;
  readonly points: readonly { readonly point: LoopPoint; readonly reached: boolean; readonly why: string }[];
  // The point the loop evaluates next, and what it waits for (loop/reached.ts's nextPoint).
  readonly next: { readonly point: LoopPoint; readonly why: string } | null;
}

// Which phase a --reached run gated, and why that one, in the words the
// message, the summary and JUnit share: `phase 01 (STATE.md names 02, which
// has reached no point; 01 is complete)`.
export function gatedPhase(loop: LoopDetails): string {
  const phase = loop.phase === null ? 'the phase of --phase-dir' : `phase ${loop.phase}`;
  if (loop.from === '--phase-number' || loop.from === '--phase-dir') return phase;
  return `${phase} (${loop.from === 'STATE.md' ? 'the one STATE.md names' : loop.from})`;
}

// Which GSD decided (--render, --builtin): where the GSD gsd_run finds is,
// its version (null: it did not say) and whether gsd-check is tested with
// it; with --builtin, whose registry the gates are.
export interface GsdDetails {
  readonly found: string | null;
  readonly version: string | null;
  readonly tested: boolean;
  readonly registry?: string;
}
