import { fail, ok, type Result } from '../failure.ts';
import type { DetailFields } from '../predicate/kind.ts';
import { closest } from '../text/closest.ts';

// A --pick path into `details` that no envelope of this kind can have is a
// usage error before anything runs: a typo must not cost a gate's run and
// then read as "no such field". Fields that may be absent from one envelope
// (`details.actual` of a missing artifact) are left to the output.
export function checkPickPath(path: readonly string[] | undefined, fields: DetailFields, envelope: string): Result<void> {
  if (path === undefined || path[0] !== 'details' || path.length < 2) return ok(undefined);
  const field = path[1]!;
  const known = Object.keys(fields);
  const shown = path.join('.');
  if (!Object.hasOwn(fields, field)) {
    const hint = closest(field, known);
    return fail(
      'usage',
      `--pick ${shown}: no such field in a ${envelope} envelope; ${hint === undefined ? `its details are: ${known.join(', ')}` : `did you mean details.${hint}?`}`,
    );
  }
  if (path.length > 2 && fields[field] === 'value') {
    return fail('usage', `--pick ${shown}: details.${field} is a single value, with nothing below it`);
  }
  return ok(undefined);
}
