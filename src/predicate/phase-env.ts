import type { GateContext } from './kind.ts';

type Phase = Pick<GateContext, 'phaseNumber' | 'phaseDir' | 'phaseReqIds'>;

// Phase values reach the command as environment variables that sh expands,
// never as shell text: a value like `$(id)` or `; rm -rf x` stays data.
// Set even when empty, so an inherited PHASE_DIR cannot stand in for a
// missing one.
export function phaseEnv(phase: Phase): Record<string, string> {
  return {
    PHASE_NUMBER: phase.phaseNumber ?? '',
    PHASE_DIR: phase.phaseDir ?? '',
    PHASE_REQ_IDS: phase.phaseReqIds ?? '',
  };
}
