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
