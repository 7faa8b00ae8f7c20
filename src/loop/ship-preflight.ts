import * as v from 'valibot';
import { ok } from '../failure.ts';
import type { PointGate, PointGates } from '../gates/run-point.ts';
import { defineKind, type GateContext } from '../predicate/kind.ts';
import type { PhaseFiles } from './phase-files.ts';

// What GSD 1.14's ship workflow checks before it renders ship:pre's gates
// (workflows/ship.md, preflight_checks), that the repository's files can
// tell: step 1, the phase's verification passed (`query
// verification.status`: only `passed` ships, anything else is
// PHASE_VERIFICATION_INCOMPLETE). Steps 2 to 5 (a clean tree, the branch, a
// remote, the `gh` CLI) are the agent's machine, not the repository's, and
// stay GSD's. The check runs as a gate of ship:pre, `ship-preflight#1`
// (GSD's step number), so every report shows it as a row of its own.

// GSD's readVerificationStatus, less its staleness test (docs/reference/
// differences.md): the status it routes on, and what it tells the user.
const NEXT: Readonly<Record<string, string>> = {
  gaps_found: 'Gaps found. Plan the fixes, then re-run execute-phase before shipping.',
  human_needed: "Human verification required. Complete the manual tests in the phase's *-UAT.md, then re-run the verify step until status is passed.",
  missing: 'No verification report found — the verify step never completed.',
};

type Details = {
  readonly kind: 'ship-preflight';
  readonly code: string | null;
  readonly status: string;
  readonly file: string | null;
  readonly line: number | null;
};

// `files` is the phase's, read before the run; `shown` how the reports name
// a file of it.
function preflightKind(files: PhaseFiles, phaseDir: string | undefined, shown: (file: string) => string) {
  return defineKind({
    summary: [],
    schema: v.object({ kind: v.literal('ship-preflight') }),
    details: { kind: 'value', code: 'value', status: 'value', file: 'value', line: 'value' },
    phaseUse: () => undefined,
    locate: (details: Details) => (details.file === null || details.line === null ? undefined : { file: details.file, line: details.line }),
    async evaluate(_predicate: unknown, _context: GateContext) {
      const raw = files.verification === undefined ? undefined : files.verificationStatus;
      const status = raw === undefined ? 'missing' : raw in NEXT || raw === 'passed' ? raw : 'unknown';
      const file = files.verification === undefined || phaseDir === undefined ? null : shown(`${phaseDir}/${files.verification}`);
      const line = raw === undefined ? null : (files.verificationLine ?? null);
      const details: Details = { kind: 'ship-preflight', code: status === 'passed' ? null : 'PHASE_VERIFICATION_INCOMPLETE', status, file, line };
      if (status === 'passed') return ok({ block: false, message: `verification passed (${file})`, details });
      const next = NEXT[status] ?? `Unexpected verification status '${raw}'.`;
      const where = file === null ? 'the phase has no VERIFICATION.md' : `${file} says status ${raw ?? '(none)'}`;
      return ok({ block: true, message: `PHASE_VERIFICATION_INCOMPLETE: ${where}; /gsd-ship ships only a passed verification. ${next}`, details });
    },
  });
}

// The preflight as ship:pre's first gate: blocking, and halting whatever
// could go wrong, as GSD's refusal does.
export function shipPreflight(files: PhaseFiles, phaseDir: string | undefined, shown: (file: string) => string): PointGate {
  const declared = { point: 'ship:pre', check: { preflight: 'verification.status' }, blocking: true, onError: 'halt' };
  const kind = preflightKind(files, phaseDir, shown);
  return {
    capability: 'ship-preflight',
    index: 1,
    declaration: {
      declared,
      point: 'ship:pre',
      when: { on: 'always' },
      gate: ok({ check: { shape: 'predicate', predicate: ok({ kind, predicate: { kind: 'ship-preflight' } }) }, blocking: true, onError: 'halt' }),
      issues: [],
      refusals: [],
    },
  };
}

// The run's points with the preflight first among ship:pre's gates, where
// ship:pre runs and its gates were had.
export function withPreflight(points: readonly PointGates[], preflight: PointGate): PointGates[] {
  return points.map((entry) => (entry.point === 'ship:pre' && entry.gates.ok ? { ...entry, gates: ok([preflight, ...entry.gates.value]) } : entry));
}
