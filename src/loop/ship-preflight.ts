import * as v from 'valibot';
import { ok } from '../failure.ts';
import type { GsdAsk, GsdRequest } from '../gsd/ask.ts';
import { isJsonObject, parseJson } from '../json/parse.ts';
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

// Where a GSD is at hand, its own answer to the preflight's question, `query
// verification.status <phase dir>`, decides, staleness and all; else GSD's
// readVerificationStatus as read here, less its staleness test (D75): the
// status it routes on, and what it tells the user.
interface GsdVerification {
  readonly status: string;
  readonly nextAction: string | undefined;
  readonly nextCommand: string | undefined;
}

export const verificationRequest = (phaseDir: string): GsdRequest => ({
  args: ['query', 'verification.status', phaseDir, '--raw'],
  env: {},
  timeoutMs: 30_000,
  keepStdout: 64 * 1024,
});

// GSD's answer, or none where it gave none it could be read from.
export async function askedVerification(ask: GsdAsk, phaseDir: string): Promise<GsdVerification | undefined> {
  const [result] = await ask([verificationRequest(phaseDir)]);
  if (result === undefined || result.status !== 'ended' || result.exitCode !== 0 || result.stdout?.complete !== true) return undefined;
  const parsed = parseJson(result.stdout.text, 'verification.status');
  if (!parsed.ok || !isJsonObject(parsed.value) || typeof parsed.value.status !== 'string') return undefined;
  const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
  return { status: parsed.value.status, nextAction: text(parsed.value.next_action), nextCommand: text(parsed.value.next_command) };
}

const NEXT: Readonly<Record<string, string>> = {
  gaps_found: 'Gaps found. Plan the fixes, then re-run execute-phase before shipping.',
  human_needed: "Human verification required. Complete the manual tests in the phase's *-UAT.md, then re-run the verify step until status is passed.",
  missing: 'No verification report found — the verify step never completed.',
};

type Details = {
  readonly kind: 'ship-preflight';
  readonly code: string | null;
  readonly status: string;
  // Who read it: GSD itself, or gsd-check's reading of the file.
  readonly by: 'gsd' | 'gsd-check';
  readonly file: string | null;
  readonly line: number | null;
};

// `files` is the phase's, read before the run; `shown` how the reports name
// a file of it.
function preflightKind(files: PhaseFiles, phaseDir: string | undefined, shown: (file: string) => string, gsd: GsdVerification | undefined) {
  return defineKind({
    summary: [],
    schema: v.object({ kind: v.literal('ship-preflight') }),
    details: { kind: 'value', code: 'value', status: 'value', by: 'value', file: 'value', line: 'value' },
    phaseUse: () => undefined,
    locate: (details: Details) => (details.file === null || details.line === null ? undefined : { file: details.file, line: details.line }),
    async evaluate(_predicate: unknown, _context: GateContext) {
      const raw = files.verification === undefined ? undefined : files.verificationStatus;
      const status = gsd?.status ?? (raw === undefined ? 'missing' : raw in NEXT || raw === 'passed' ? raw : 'unknown');
      const file = files.verification === undefined || phaseDir === undefined ? null : shown(`${phaseDir}/${files.verification}`);
      const line = raw === undefined ? null : (files.verificationLine ?? null);
      const details: Details = {
        kind: 'ship-preflight',
        code: status === 'passed' ? null : 'PHASE_VERIFICATION_INCOMPLETE',
        status,
        by: gsd === undefined ? 'gsd-check' : 'gsd',
        file,
        line,
      };
      if (status === 'passed') return ok({ block: false, message: `verification passed (${file})`, details });
      if (gsd !== undefined) {
        const next = [gsd.nextAction, gsd.nextCommand === undefined ? undefined : `Next: ${gsd.nextCommand}`].filter((part) => part !== undefined).join(' ');
        return ok({
          block: true,
          message: `PHASE_VERIFICATION_INCOMPLETE: GSD reads ${file ?? "the phase's verification"} as ${status}; /gsd-ship ships only a passed verification.${next === '' ? '' : ` ${next}`}`,
          details,
        });
      }
      const next = NEXT[status] ?? `Unexpected verification status '${raw}'.`;
      const where = file === null ? 'the phase has no VERIFICATION.md' : `${file} says status ${raw ?? '(none)'}`;
      return ok({ block: true, message: `PHASE_VERIFICATION_INCOMPLETE: ${where}; /gsd-ship ships only a passed verification. ${next}`, details });
    },
  });
}

// The preflight as ship:pre's first gate: blocking, and halting whatever
// could go wrong, as GSD's refusal does.
export function shipPreflight(files: PhaseFiles, phaseDir: string | undefined, shown: (file: string) => string, gsd?: GsdVerification): PointGate {
  const declared = { point: 'ship:pre', check: { preflight: 'verification.status' }, blocking: true, onError: 'halt' };
  const kind = preflightKind(files, phaseDir, shown, gsd);
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
