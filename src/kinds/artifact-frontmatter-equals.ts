import { resolve } from 'node:path';
import * as v from 'valibot';
import { findArtifact } from '../artifact/find-artifact.ts';
import { extractFrontmatter, parseFrontmatter } from '../artifact/frontmatter.ts';
import type { Envelope } from '../envelope.ts';
import { fail } from '../failure.ts';
import { readHead } from '../io/read-head.ts';
import { defineKind, type Evaluation, type GateContext } from '../predicate/kind.ts';
import { describe } from '../text/describe.ts';

// Frontmatter sits at the top; past this many bytes a file has none worth reading.
export const HEAD_BYTES = 1024 * 1024;

const text = (what: string) =>
  v.pipe(
    v.string((issue) => `must be a string (${what}), got ${describe(issue.input)}`),
    v.check((s: string) => s.trim() !== '', 'must not be empty or only whitespace'),
  );

const schema = v.object({
  kind: v.literal('artifact-frontmatter-equals'),
  artifact: v.pipe(
    text('a file name'),
    v.check((name: string) => name !== '.' && name !== '..' && !/[/\\\0]/.test(name), 'must be a file name, not a path'),
  ),
  field: text('a top-level frontmatter key'),
  // Any JSON value, null included; only a missing key is invalid.
  equals: v.custom<unknown>((input) => input !== undefined, 'is required (any JSON value, null included)'),
});

type Predicate = v.InferOutput<typeof schema>;

export const artifactFrontmatterEquals = defineKind({
  schema,
  async evaluate(predicate: Predicate, context: GateContext): Promise<Evaluation> {
    const dir = context.phaseDir === undefined ? context.projectRoot : resolve(context.projectRoot, context.phaseDir);
    const base = { kind: predicate.kind, artifact: predicate.artifact, field: predicate.field, expected: predicate.equals };
    const path = findArtifact(dir, predicate.artifact);
    if (path === undefined) {
      return envelope({
        block: true,
        message: `Artifact matching ${predicate.artifact} not found in ${dir}`,
        details: { ...base, path: null, dir, match: false, artifactNotFound: true },
      });
    }

    let head: Buffer;
    try {
      head = readHead(path, HEAD_BYTES);
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      return failure(`cannot read ${path}: ${typeof code === 'string' ? code : String(error)}`);
    }
    const yamlText = extractFrontmatter(head, path);
    if (!yamlText.ok) return { status: 'failure', failure: yamlText.failure };
    const fields = parseFrontmatter(yamlText.value, path);
    if (!fields.ok) return { status: 'failure', failure: fields.failure };

    const present = Object.hasOwn(fields.value, predicate.field);
    const actual = present ? fields.value[predicate.field] : undefined;
    const match = present && matches(actual, predicate.equals);
    const expected = textForm(predicate.equals);
    return envelope({
      block: !match,
      message: match
        ? `Frontmatter field "${predicate.field}" matches expected value (${expected})`
        : `Frontmatter field "${predicate.field}" in ${predicate.artifact} is ${textForm(actual)}, expected ${expected}`,
      details: { ...base, path, match, actual: present ? actual : null, fieldPresent: present },
    });
  },
});

// Equal, or equal as text: YAML's `0` matches JSON's "0", `true` matches
// "true"; lists and maps compare by their JSON form. A missing field never
// gets here: it never matches, even `equals: null`.
export function matches(actual: unknown, expected: unknown): boolean {
  return actual === expected || textForm(actual) === textForm(expected);
}

// Also how a value reads in a message: text bare, containers as JSON, a
// missing value as `undefined`.
function textForm(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

function envelope(value: Envelope): Evaluation {
  return { status: 'envelope', envelope: value };
}

function failure(message: string): Evaluation {
  return { status: 'failure', failure: fail('invalid-artifact', message).failure };
}
