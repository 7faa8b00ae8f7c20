import { ok, usage, type Result } from '../failure.ts';
import { EXIT_CONTRACTS } from './flag-table.ts';

// GSD 1.14's exit-code contract (`--exit-contract=v1|v2`, GSD_EXIT_CONTRACT;
// the flag first, an empty variable as unset, v1 by default). The versions
// differ only in a DEGRADED outcome, an answer that carries an `error`
// field, which exits 0 under v1 and 80 under v2. No envelope of check
// predicate or gates run carries one, in GSD or here, so both versions exit
// alike; what the contract changes is which values are refused.
type ExitContract = (typeof EXIT_CONTRACTS)[number];

export function exitContract(flag: string | undefined, variable: string | undefined): Result<ExitContract> {
  const fromEnv = variable === '' ? undefined : variable;
  const [given, source] = flag !== undefined ? [flag, '--exit-contract'] : [fromEnv, 'GSD_EXIT_CONTRACT'];
  if (given === undefined) return ok('v1');
  const known = EXIT_CONTRACTS.find((contract) => contract === given);
  if (known !== undefined) return ok(known);
  return usage(`${source} ${JSON.stringify(given)} is not an exit contract; ${EXIT_CONTRACTS.join(' or ')}`);
}
