import { ok, usage, type Result } from '../failure.ts';
import { shown } from '../text/format.ts';
import type { DetailFields } from '../predicate/kind.ts';
import { closest } from '../text/suggest.ts';

// A --pick path, read once: fields joined by dots, and a list item in
// brackets after a field, counted from the end when negative, as GSD writes
// them (`details.gates[0].status`, `details.gates[-1]`). A key is a string,
// an item a number.
type PickStep = string | number;

export interface PickPath {
  readonly text: string;
  readonly steps: readonly PickStep[];
}

const ENVELOPE_FIELDS = ['block', 'message', 'details'];
const PART = /^([^[\]]+)(?:\[(-?\d+)\])?$/;

export function parsePickPath(text: string): Result<PickPath> {
  const steps: PickStep[] = [];
  for (const part of text.split('.')) {
    const match = PART.exec(part);
    if (match === null) {
      return usage(`--pick ${shown(text)} is not a path: fields joined by dots, a list item in brackets after its field (details.gates[0], details.gates[-1])`);
    }
    steps.push(match[1]!);
    if (match[2] !== undefined) steps.push(Number(match[2]));
  }
  if (!ENVELOPE_FIELDS.includes(steps[0] as string)) {
    const hint = closest(steps[0] as string, ENVELOPE_FIELDS);
    const fix = hint === undefined ? undefined : hint + text.slice((steps[0] as string).length);
    return usage(
      `--pick ${shown(text)} is not a field of the envelope; ${fix === undefined ? 'it starts with block, message or details' : `did you mean ${fix}?`}`,
    );
  }
  return ok({ text, steps });
}

// A --pick path that no envelope of this kind can have is a usage error
// before anything runs: a typo must not cost a gate's run and then read as
// "no such field". Fields that may be absent from one envelope
// (`details.actual` of a missing artifact) are left to the output.
export function checkPickPath(path: PickPath | undefined, fields: DetailFields, envelope: string): Result<void> {
  if (path === undefined || path.steps.length < 2) return ok(undefined);
  const [top, field] = path.steps as [string, PickStep];
  const text = shown(path.text);
  if (top !== 'details') return usage(`--pick ${text}: ${top} is a single value, with nothing below it`);
  if (typeof field === 'number') return usage(`--pick ${text}: details is an object, not a list`);
  const known = Object.keys(fields);
  if (!Object.hasOwn(fields, field)) {
    const hint = closest(field, known);
    return usage(
      `--pick ${text}: no such field in a ${envelope} envelope; ${hint === undefined ? `its details are: ${known.join(', ')}` : `did you mean details.${hint}?`}`,
    );
  }
  if (path.steps.length > 2 && fields[field] === 'value') {
    return usage(`--pick ${text}: details.${field} is a single value, with nothing below it`);
  }
  return ok(undefined);
}

// The value a path leads to in an envelope, or undefined when it leads
// nowhere. Own fields only: "--pick details.constructor" must not reach a
// prototype.
export function pickValue(envelope: unknown, path: PickPath): { readonly value: unknown } | undefined {
  let value = envelope;
  for (const step of path.steps) {
    if (typeof step === 'number') {
      if (!Array.isArray(value)) return undefined;
      const index = step < 0 ? value.length + step : step;
      if (index < 0 || index >= value.length) return undefined;
      value = value[index] as unknown;
    } else {
      if (typeof value !== 'object' || value === null || !Object.hasOwn(value, step)) return undefined;
      value = (value as Record<string, unknown>)[step];
    }
  }
  return { value };
}
