import type * as v from 'valibot';
import type { Result, SourceLocation } from '../failure.ts';
import type { PhaseDirLookup } from '../project/phase.ts';
import type { PlanningScope } from '../project/planning-scope.ts';
import type { PathShower } from '../project/shown-path.ts';
import type { StatePosition } from '../project/state-document.ts';
import type { Runner } from '../run/runner.ts';

// What a kind's evaluator may know of the gate and the world; everything with
// a side effect arrives here injected, so kinds are tested in-process.
export interface GateContext {
  readonly projectRoot: string;
  readonly phaseNumber?: string | undefined;
  // --phase-dir, absolute; the value of ${PHASE_DIR}.
  readonly phaseDir?: string | undefined;
  // Without --phase-dir: the phase directory looked up from the number.
  readonly phaseDirLookup?: PhaseDirLookup | undefined;
  readonly phaseReqIds?: string | undefined;
  // The planning directory's scope, resolved once for the run (or why it
  // cannot be: a GSD_PROJECT that could lead elsewhere).
  readonly planning: Result<PlanningScope>;
  // How its messages name the files it read (check predicate as GSD does,
  // gates run relative to the checkout).
  readonly paths: PathShower;
  // STATE.md as read for --current-phase, so that nothing reads it twice.
  readonly state?: StatePosition;
  // The commands' environment: the caller's, with the run's GSD_WORKSTREAM.
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly killAfterMs: number;
  readonly signal?: AbortSignal | undefined;
  readonly force?: AbortSignal | undefined;
  readonly run: Runner;
}

// What every check answers: whether it blocks, why, and details whose
// fields depend on its kind (each kind names them in a Details type).
type Details = { readonly kind: string } & Readonly<Record<string, unknown>>;

export interface Envelope<D extends { readonly kind: string } = Details> {
  readonly block: boolean;
  readonly message: string;
  readonly details: D;
}

// A verdict, or why there is none (a stop included).
export type Evaluation = Result<Envelope>;

// Every field of a kind's details, as --pick may name it: a `value` is one
// JSON value, a `tree` may hold more below it.
export type DetailFields<D = Details> = { readonly [K in keyof D]-?: 'value' | 'tree' };

type ObjectSchema = v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>;

export interface Kind<S extends ObjectSchema = ObjectSchema, D extends Details = Details> {
  // What it does, in --help's lines: every field of its schema is named in
  // quotes (test/cli/help.test.ts holds it).
  readonly summary: readonly string[];
  // The fields a predicate of this kind may carry, `kind` included; any other
  // field is rejected before the schema runs.
  readonly schema: S;
  // The fields its envelopes' details may carry, so that --pick can refuse a
  // path no envelope of the kind can have before anything runs.
  readonly details: DetailFields<D>;
  evaluate(predicate: v.InferOutput<S>, context: GateContext): Promise<Result<Envelope<D>>>;
  // What of the phase this predicate reads, as a clause ("reads SECURITY.md
  // from the phase directory"); undefined when it reads none. GSD's loop
  // always gives a phase; a run that gives none cannot check it as GSD would.
  phaseUse(predicate: v.InferOutput<S>): string | undefined;
  // The line a verdict is about, for kinds that read a file: a report (a
  // GitHub annotation) points there.
  locate?(details: D): SourceLocation | undefined;
  // Declarations that are valid but will not do what they seem to: `validate`
  // reports them as issues, each under the field it concerns.
  lint?(predicate: v.InferOutput<S>): readonly { readonly field: string; readonly message: string }[];
}

// Erases the schema's type so kinds of different shapes share one table.
export const defineKind = <S extends ObjectSchema, D extends Details = Details>(kind: Kind<S, D>): Kind => kind as unknown as Kind;
