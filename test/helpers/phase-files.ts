import type { PhaseFiles } from '../../src/loop/phase-files.ts';

// A phase directory with nothing in it, as phase-files.ts reads it: the value
// the loop's tests spread their own files over.
export const NOTHING: PhaseFiles = {
  names: [],
  context: undefined,
  uat: undefined,
  verification: undefined,
  plans: [],
  waves: [],
  imported: [],
  pastShip: undefined,
  shipped: false,
  verificationPassed: false,
  verificationStatus: undefined,
  verificationLine: undefined,
};
