import { basename, relative } from 'node:path';
import * as v from 'valibot';
import { findArtifact } from '../artifact/find-artifact.ts';
import { fieldLineIndex } from '../artifact/field-line.ts';
import { extractFrontmatter } from '../artifact/frontmatter.ts';
import { readFields } from '../artifact/off-thread.ts';
import { type Envelope, defineKind, type GateContext, type Kind } from '../predicate/kind.ts';
import { runPhaseDir, type PhaseDirLookup } from '../project/phase.ts';
import { readRegular } from '../fs/read.ts';
import { readHead } from '../io/input.ts';
import { locatedAt, ok, type Result } from '../failure.ts';
import { describe, visible } from '../text/format.ts';

// Frontmatter sits at the top; past this many bytes a file has none worth reading.
const HEAD_BYTES = 1024 * 1024;

const text = (what: string) =>
  v.pipe(
    v.string((issue) => `must be a string (${what}), got ${describe(issue.input)}`),
    v.check((s: string) => s.trim() !== '', 'must not be empty or only whitespace'),
    v.metadata({ jsonSchema: { pattern: '\\S' } }),
  );

const schema = v.object({
  kind: v.literal('artifact-frontmatter-equals'),
  artifact: v.pipe(
    text('a file name'),
    v.check((name: string) => name !== '.' && name !== '..' && !/[/\\\0]/.test(name), 'must be a file name, not a path'),
    v.metadata({ jsonSchema: { pattern: '^[^/\\\\\\u0000]*$', not: { enum: ['.', '..'] } } }),
  ),
  field: text('a top-level frontmatter key'),
  // Any JSON value, null included; only a missing key is invalid.
  equals: v.pipe(
    v.custom<unknown>((input) => input !== undefined, 'is required (any JSON value, null included)'),
    v.metadata({ jsonSchema: {} }),
  ),
});

type Predicate = v.InferOutput<typeof schema>;

type ArtifactFrontmatterEqualsDetails = {
  readonly kind: 'artifact-frontmatter-equals';
  readonly artifact: string;
  readonly field: string;
  readonly expected: unknown;
  // Without --phase-dir: what --phase-number found.
  readonly phaseDirLookup?: PhaseDirLookup;
  // The artifact, relative to the project root; null when none was found.
  readonly path: string | null;
  // The field's line in it, from 1; the frontmatter's first line (1) when
  // the field is not there. Absent when no artifact was found.
  readonly line?: number;
  // Where it was looked for, when it was not found.
  readonly searched?: readonly string[];
  readonly frontmatter?: 'absent' | 'unclosed' | 'not-a-mapping' | 'present';
  readonly match: boolean;
  // The field's value as GSD reads it; null when the field is missing.
  readonly actual?: unknown;
  readonly fieldPresent?: boolean;
  readonly artifactNotFound?: true;
};

type FrontmatterEvaluation = Result<Envelope<ArtifactFrontmatterEqualsDetails>>;

export const artifactFrontmatterEquals = frontmatterKind(readRegular);

// `readFile` reads the artifact: a test passes one whose open fails.
export function frontmatterKind(readFile: typeof readRegular): Kind {
  return defineKind<typeof schema, ArtifactFrontmatterEqualsDetails>({
    summary: ['the frontmatter "field" of the "artifact" (looked for in the', 'phase directory, then the project root) "equals" a value'],
    schema,
    details: {
      kind: 'value',
      artifact: 'value',
      field: 'value',
      expected: 'tree',
      phaseDirLookup: 'tree',
      path: 'value',
      line: 'value',
      searched: 'tree',
      frontmatter: 'value',
      match: 'value',
      actual: 'tree',
      fieldPresent: 'value',
      artifactNotFound: 'value',
    },
    phaseUse: (predicate) => `looks for ${predicate.artifact} in the phase directory first`,
    locate: (details) => (details.path === null ? undefined : { file: details.path, line: details.line ?? 1 }),
    async evaluate(predicate: Predicate, context: GateContext): Promise<FrontmatterEvaluation> {
      const base = {
        kind: predicate.kind,
        artifact: predicate.artifact,
        field: predicate.field,
        expected: predicate.equals,
        ...(context.phaseDirLookup === undefined ? {} : { phaseDirLookup: context.phaseDirLookup }),
      };
      const dirs = searchDirectories(context);
      let found: { path: string; within: string } | undefined;
      for (const dir of dirs) {
        const search = findArtifact(dir, predicate.artifact);
        if (!search.ok) return search;
        found = search.value;
        if (found !== undefined) break;
      }
      if (found === undefined) {
        return envelope({
          block: true,
          message: visible(`Artifact matching ${predicate.artifact} not found in ${dirs.map(context.paths.place).join(' or ')}${phaseMiss(context)}`),
          details: { ...base, path: null, searched: dirs, match: false, artifactNotFound: true },
        });
      }

      const shown = relative(context.projectRoot, found.path);
      const named = context.paths.artifact(found.path);
      // A file that cannot be read, or whose frontmatter cannot be parsed,
      // is pointed at whole: its first line.
      const top = { file: shown, line: 1 };
      const head = readHead(found.path, HEAD_BYTES, found.within, readFile, context.paths.place);
      if (!head.ok) return locatedAt(head, top);
      const frontmatter = extractFrontmatter(head.value);
      const expected = textForm(predicate.equals);
      const missing = (why: string, state: 'absent' | 'unclosed' | 'not-a-mapping' | 'present'): FrontmatterEvaluation =>
        envelope({
          block: true,
          message: visible(`Frontmatter field "${predicate.field}" in ${named} is missing${why}, expected ${expected}`),
          details: { ...base, path: shown, line: 1, frontmatter: state, match: false, actual: null, fieldPresent: false },
        });
      if (frontmatter.status === 'absent') return missing(': the file has no frontmatter (its first line is not ---)', 'absent');
      if (frontmatter.status === 'unclosed') {
        return missing(': its frontmatter, opened by --- on line 1, is never closed by --- or ...', 'unclosed');
      }
      const parsed = await readFields(frontmatter.yaml, named, { signal: context.signal });
      if (!parsed.ok) return locatedAt(parsed, top);
      if (!parsed.value.mapping) return missing(`: its frontmatter is ${parsed.value.shape}, not a mapping of fields`, 'not-a-mapping');
      const fields = parsed.value.fields;
      if (!Object.hasOwn(fields, predicate.field)) return missing('', 'present');

      const actual = fields[predicate.field];
      const match = matches(actual, predicate.equals) || typedEqual(parsed.value.typed[predicate.field], predicate.equals);
      return envelope({
        block: !match,
        message: visible(
          match
            ? `Frontmatter field "${predicate.field}" matches expected value (${expected})`
            : `Frontmatter field "${predicate.field}" in ${named} is ${textForm(actual)}, expected ${expected}`,
        ),
        // The frontmatter's text starts on line 2, after the opening ---.
        details: {
          ...base,
          path: shown,
          line: (fieldLineIndex(frontmatter.yaml, predicate.field) ?? -1) + 2,
          frontmatter: 'present',
          match,
          actual,
          fieldPresent: true,
        },
      });
    },
  });
}

// The phase directory (given, or the one the phase number found), then the
// project root: a phase's own report first, the project's ledger after it.
function searchDirectories(context: GateContext): string[] {
  const phaseDir = runPhaseDir(context.phaseDir, context.phaseDirLookup);
  return phaseDir === undefined || phaseDir === context.projectRoot ? [context.projectRoot] : [phaseDir, context.projectRoot];
}

// Why the phase directory was not searched, when --phase-number was to find
// it: a CI step that prints only the message must still show the cause.
function phaseMiss(context: GateContext): string {
  const lookup = context.phaseDirLookup;
  if (context.phaseDir !== undefined || lookup === undefined || lookup.matches.length === 1) return '';
  if (lookup.matches.length === 0) {
    return ` (no phase directory of ${context.paths.artifact(lookup.searched)} matches --phase-number ${lookup.phaseNumber})`;
  }
  const names = lookup.matches.map((dir) => basename(dir));
  return ` (--phase-number ${lookup.phaseNumber} matches ${names.length} phase directories, ${names.slice(0, -1).join(', ')} and ${names.at(-1)}: give --phase-dir)`;
}

// GSD's comparison of the value as it reads it (text) with `equals`: equal,
// or equal as text: `04` matches "04" and 4 does not, `1.10` matches "1.10",
// `true` matches true and "true"; lists and maps compare by their JSON form.
// A missing field never gets here: it never matches, even `equals: null`.
export function matches(actual: unknown, expected: unknown): boolean {
  return actual === expected || (actual !== null && textForm(actual) === textForm(expected));
}

// The addition (differences.md, D7): the value as YAML 1.2's core schema
// types it equals `equals` in type and value, so `0.0` and `0x0` match 0,
// `True` matches true, `~` matches null; in lists and maps, item by item.
export function typedEqual(actual: unknown, expected: unknown): boolean {
  if (actual === expected) return true;
  if (typeof actual !== 'object' || typeof expected !== 'object' || actual === null || expected === null) return false;
  if (Array.isArray(actual) !== Array.isArray(expected)) return false;
  const a = Object.entries(actual);
  const e = new Map(Object.entries(expected));
  return a.length === e.size && a.every(([key, value]) => e.has(key) && typedEqual(value, e.get(key)));
}

// Also how a value reads in a message: text bare, containers as JSON. In a
// message every control character is escaped, newlines too: the message is
// one line, and no value can start another (differences.md, D21).
function textForm(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

function envelope(value: Envelope<ArtifactFrontmatterEqualsDetails>): FrontmatterEvaluation {
  return ok(value);
}
