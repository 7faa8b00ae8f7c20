import { fail, ok, stopped, type Result } from '../failure.ts';
import type { GsdAsk } from '../gsd/ask.ts';
import { isJsonObject, parseJson } from '../json/parse.ts';
import type { PhaseFiles } from './phase-files.ts';
import { verificationRequest } from './ship-preflight.ts';

// Where a GSD is at hand, a phase's plans, waves and verification are GSD's
// own answers (`phase-plan-index`, `query verification.status`), asked in
// the run's GSD process (gsd/ask.ts): what phase-files.ts ports of them is
// then only the reading of a run without GSD (compat/test/loop-reading.test.mjs
// holds the two equal). What GSD itself refuses (two directories for the
// phase, plans in a cycle) fails the reading, as the port's does.

export type PhaseReads = (phase: string, dir: string, files: PhaseFiles) => Promise<Result<PhaseFiles>>;

const READ = { env: {}, timeoutMs: 30_000, keepStdout: 1024 * 1024 };

export const gsdPhaseReads =
  (ask: GsdAsk): PhaseReads =>
  async (phase, dir, files) => {
    const [index, verification] = await ask([{ ...READ, args: ['phase-plan-index', phase, '--raw'] }, verificationRequest(dir)]);
    const plans = planIndex(index!);
    if (!plans.ok) return plans;
    const status = answer(verification!);
    return ok({
      ...files,
      ...(plans.value === undefined ? {} : plans.value),
      ...(status !== undefined && typeof status.status === 'string' ? { verificationPassed: status.status === 'passed' } : {}),
    });
  };

type Ran = Awaited<ReturnType<GsdAsk>>[number];

// GSD's answer as JSON, or none where it gave none.
function answer(result: Ran): Record<string, unknown> | undefined {
  if (result.status !== 'ended' || result.exitCode !== 0 || result.stdout?.complete !== true) return undefined;
  const parsed = parseJson(result.stdout.text, 'the answer');
  return parsed.ok && isJsonObject(parsed.value) ? parsed.value : undefined;
}

// phase-plan-index's plans and waves; none where GSD has no directory for
// the phase (the port has none either) or gave no answer, a failure where
// it calls the phase ambiguous.
function planIndex(result: Ran): Result<Pick<PhaseFiles, 'plans' | 'waves'> | undefined> {
  if (result.status === 'stopped') return stopped(result.stop);
  // A GSD that could not answer leaves the reading to the port, which fails
  // where GSD refuses (plans in a cycle, two plan ids one in any case).
  const index = answer(result);
  if (index === undefined) return ok(undefined);
  if (typeof index.error === 'string') {
    return /ambiguous/i.test(index.error) ? fail('ambiguous-phase', `GSD's phase-plan-index: ${index.error}: give --phase-dir`) : ok(undefined);
  }
  if (!Array.isArray(index.plans) || !isJsonObject(index.waves)) return ok(undefined);
  const plans = index.plans.flatMap((plan) =>
    isJsonObject(plan) && typeof plan.id === 'string'
      ? [{ id: plan.id, file: plan.id.endsWith('.md') ? plan.id : `${plan.id}-PLAN.md`, summarized: plan.has_summary === true }]
      : [],
  );
  const waves = Object.entries(index.waves)
    .filter(([, ids]) => Array.isArray(ids))
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([, ids]) => (ids as unknown[]).filter((id): id is string => typeof id === 'string'));
  return ok({ plans, waves });
}
