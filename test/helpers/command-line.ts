import assert from 'node:assert/strict';
import { parseCommandLine } from '../../src/cli/command-line.ts';

// The command line as the option tests read it: a predicate to give, the
// options of a check predicate line, or the message of a usage error
// without its pointer to --help.
export const P = '{"kind":"command-exit-zero","command":"true"}';

export function options(argv: string[]) {
  const result = parseCommandLine(argv);
  assert.ok(result.ok, result.ok ? '' : result.failure.message);
  assert.equal(result.value.action, 'check-predicate');
  return result.value.action === 'check-predicate' ? result.value.options : undefined;
}

export function usage(argv: string[]): string {
  const result = parseCommandLine(argv);
  assert.ok(!result.ok, `expected a usage error for ${JSON.stringify(argv)}`);
  assert.equal(result.failure.reason, 'usage');
  assert.match(result.failure.message, / \(see gsd-check --help\)$/);
  return result.failure.message.replace(/ \(see gsd-check --help\)$/, '');
}
