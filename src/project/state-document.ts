import { repairAmbiguousColons, yaml } from '../artifact/frontmatter.ts';
import { errorText } from '../fs/entry.ts';
import { fail, ok, type Result } from '../failure.ts';
import { phaseIdInProse } from './phase-id.ts';

// STATE.md as `gsd-tools state-snapshot` (GSD 1.14) reads it: the current
// phase and the status, from the text as GSD decodes the file (a BOM kept,
// CRLF or LF). GSD's own reading is the rule here, quirks included, since a
// gate that runs on another phase than GSD's workflows route to checks the
// wrong thing; where gsd-check could not be sure to read the file as GSD
// does, the answer is a failure saying why, never a phase GSD might not give.

// The statuses GSD's normalizeStateStatus maps its vocabulary onto.
// `unknown` is also prose it does not recognise: GSD passes that through as
// written, which `rawStatus` keeps.
export type StateStatus = 'discussing' | 'planning' | 'executing' | 'verifying' | 'completed' | 'paused' | 'unknown';

export interface StatePosition {
  // As GSD gives it: `04`, `12a`, `12.1`, `04` for `CK-04`, `1` for `1-2`.
  readonly phase: string;
  // Which of GSD's three places named it: `current_phase` in the
  // frontmatter, a `Current Phase:` field, or a `Phase:` field (under
  // `## Current Position`, or anywhere when there is no such section).
  readonly source: 'frontmatter' | 'current-phase-field' | 'phase-field';
  readonly status: StateStatus;
  // The status as state-snapshot prints it; null where it prints null.
  readonly rawStatus: string | null;
  // The `Phase:` field of `## Current Position` as written (`1 (Tasks) —
  // READY TO EXECUTE`): where GSD's transitions record the loop.
  readonly positionLine: string | null;
  // Its `Last activity:` field: begin-phase writes `<date> — Phase 2
  // execution started` there, which the next transition or a ship's own
  // update of it (a bare date) rewrites.
  readonly lastActivity: string | null;
}

// `file`: the path the messages name.
export function readStateDocument(text: string, file: string): Result<StatePosition> {
  const frontmatter = frontmatterOf(text, file);
  if (!frontmatter.ok) return frontmatter;
  const { fields } = frontmatter.value;
  const body = withoutLeadingBlocks(text);
  const position = sectionBody(body, (h) => (h.level === 2 || h.level === 3) && h.text.trim().toLowerCase() === 'current position') ?? body;
  const named = (
    [
      ['frontmatter', fields.current_phase],
      ['current-phase-field', fieldOf(position, 'Current Phase')],
      ['phase-field', fieldOf(position, 'Phase')],
    ] as const
  )
    .map(([source, value]) => ({ source, phase: phaseOf(value) }))
    .find((n) => n.phase !== undefined);
  if (named?.phase === undefined) {
    return fail(
      'invalid-artifact',
      `${file} names no phase: ${frontmatter.value.note}, and no Current Phase: or Phase: line (under ## Current Position, if there is one) starts with a phase id such as 04`,
    );
  }
  const rawStatus = fields.status ?? fieldOf(body, 'Status');
  const session =
    sectionBody(body, (h) => h.level === 2 && h.text.trim().toLowerCase() === 'session') ??
    sectionBody(body, (h) => h.level === 2 && h.text.trim().toLowerCase() === 'session continuity') ??
    body;
  const pausedAt = fields.paused_at ?? fieldOf(session, 'Paused At');
  return ok({
    phase: named.phase,
    source: named.source,
    status: normalisedStatus(rawStatus, pausedAt),
    rawStatus,
    positionLine: fieldOf(position, 'Phase'),
    lastActivity: fieldOf(position, 'Last activity'),
  });
}

// ─── Frontmatter ────────────────────────────────────────────────────────────

// The three fields GSD reads from the frontmatter, each a text that is not
// blank, trimmed (anything else, a list, a mapping, an empty value, sends GSD
// to the body); and, for a message, what the frontmatter held.
interface FrontmatterFields {
  readonly current_phase: string | null;
  readonly status: string | null;
  readonly paused_at: string | null;
}

const NO_FIELDS: FrontmatterFields = { current_phase: null, status: null, paused_at: null };

function frontmatterOf(text: string, file: string): Result<{ fields: FrontmatterFields; note: string }> {
  const region = frontmatterRegion(text);
  if (region === 'absent') return ok({ fields: NO_FIELDS, note: 'it has no frontmatter (GSD needs a first line of exactly ---)' });
  if (region === 'unclosed') return ok({ fields: NO_FIELDS, note: 'its frontmatter is never closed by a line that starts with ---, so GSD reads none' });
  const mapping = yamlMapping(region, file);
  if (!mapping.ok) return mapping;
  if (mapping.value === undefined) return ok({ fields: NO_FIELDS, note: 'GSD cannot read its frontmatter as YAML, so it reads none' });
  const fields = {
    current_phase: textField(mapping.value, 'current_phase'),
    status: textField(mapping.value, 'status'),
    paused_at: textField(mapping.value, 'paused_at'),
  };
  return ok({ fields, note: currentPhaseNote(fields.current_phase, mapping.value.current_phase) });
}

// Why the frontmatter's current_phase named no phase, for the message.
function currentPhaseNote(text: string | null, given: unknown): string {
  if (text !== null) return `its current_phase ${JSON.stringify(text)} does not start with a phase id`;
  if (given === undefined) return 'its frontmatter has no current_phase';
  if (given === null || typeof given === 'string') return 'its current_phase is blank';
  return `its current_phase is ${Array.isArray(given) ? 'a list' : 'a mapping'}`;
}

// GSD's fences: a first line of exactly `---` (after one BOM), closed at the
// next line that starts with `---` (`----` and `--- # x` too); never `...`,
// nor `--- ` with trailing blanks. The close is looked for past the opening
// line, so a `---` right below it is not one: GSD reads on to the next.
function frontmatterRegion(text: string): string | 'absent' | 'unclosed' {
  const t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const start = t.startsWith('---\r\n') ? 5 : t.startsWith('---\n') ? 4 : -1;
  if (start === -1) return 'absent';
  const close = t.indexOf('\n---', start);
  if (close === -1) return 'unclosed';
  return t.slice(start, t[close - 1] === '\r' ? close - 1 : close);
}

// The frontmatter's top-level mapping as GSD's parse gives it (js-yaml, the
// failsafe schema, a repeated key keeping its last value), or undefined where
// GSD's parse fails and it reads no frontmatter at all: YAML that js-yaml
// refuses even after GSD's colon repair, an anchor its first pass reaches, a
// U+E000 (GSD's stand-in for NUL), a list or a scalar.
function yamlMapping(region: string, file: string): Result<Record<string, unknown> | undefined> {
  // GSD's first pass looks only for anchors: any other error ends it, and
  // the parse goes on.
  const anchors = load(region);
  if (anchors === ANCHOR) return ok(undefined);
  if (anchors instanceof Error) return unreadable(file, anchors);
  if (region.includes('\ue000')) return ok(undefined);
  const escaped = region.split('\0').join('\ue000');
  let raw = load(escaped);
  if (raw === YAML_ERROR) {
    const repaired = repairAmbiguousColons(escaped);
    raw = repaired === escaped ? YAML_ERROR : load(repaired);
  }
  // GSD reads an anchor that only this parse reaches (past a line its first
  // pass stopped at); reading it here would let an alias expand.
  if (raw === ANCHOR) {
    return fail(
      'invalid-artifact',
      `${file}: its frontmatter uses an anchor or alias (& or *) past a line where GSD's check for them stops, which gsd-check does not read`,
    );
  }
  if (raw instanceof Error) return unreadable(file, raw);
  if (raw === YAML_ERROR || raw === null || typeof raw !== 'object' || Array.isArray(raw)) return ok(undefined);
  return ok(raw as Record<string, unknown>);
}

const ANCHOR = Symbol('an anchor or alias');
const YAML_ERROR = Symbol('YAML js-yaml refuses');

class AnchorReached extends Error {}

// One parse under GSD's options, stopped at the first anchor: what it read,
// or how it failed (an error that is not js-yaml's own is handed back).
function load(text: string): unknown {
  const library = yaml();
  try {
    return library.load(text, {
      schema: library.FAILSAFE_SCHEMA,
      json: true,
      listener: (_, state) => {
        if (state.anchor !== null && state.anchor !== undefined) throw new AnchorReached();
      },
    });
  } catch (error) {
    if (error instanceof AnchorReached) return ANCHOR;
    if (error instanceof Error && error.name === 'YAMLException') return YAML_ERROR;
    return error instanceof Error ? error : new Error(String(error));
  }
}

function textField(mapping: Record<string, unknown>, key: string): string | null {
  const value = Object.hasOwn(mapping, key) ? mapping[key] : undefined;
  if (typeof value !== 'string' || value.trim() === '') return null;
  return value.trim().split('\ue000').join('\0');
}

// Errors GSD's catch would hide too, but on a stack or a heap that gsd-check
// cannot be sure is as deep as GSD's.
function unreadable(file: string, error: unknown): Result<never> {
  return fail('invalid-artifact', `${file}: its frontmatter cannot be read as data: ${errorText(error)}`);
}

// ─── The body ───────────────────────────────────────────────────────────────

// GSD's body: the text less every block at its start that opens with `---`
// and closes at a line that starts with `---` (blank lines before each
// skipped, as are the blanks after), which is not the rule the frontmatter
// is found by: a first line `--- ` is in the body, a leading blank line is
// not, and a block after the frontmatter goes too.
// (`{0,}`, not `*`: a `*` before the closing slash would end the comment
// the program is carried in.)
const LEADING_BLOCK = /^\s*---\r?\n[\s\S]*?\r?\n---\s{0,}/;

function withoutLeadingBlocks(text: string): string {
  let body = text;
  let next = body.replace(LEADING_BLOCK, '');
  while (next !== body) {
    body = next;
    next = body.replace(LEADING_BLOCK, '');
  }
  return body;
}

interface Heading {
  readonly level: number;
  readonly text: string;
  // 0-based.
  readonly line: number;
}

// ATX headings outside fenced code, as GSD's sectionizer finds them: lines
// split at LF, a trailing CR dropped; up to three spaces, one to six `#`.
function headings(lines: readonly string[]): Heading[] {
  const found: Heading[] = [];
  let fence: { char: string; length: number } | undefined;
  lines.forEach((raw, line) => {
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const delimiter = /^( {0,3})(`{3,}|~{3,})(.*)$/.exec(text);
    if (delimiter !== null) {
      const [, , run = '', info = ''] = delimiter;
      if (fence === undefined) {
        // A backtick in a backtick fence's info string makes it no fence: the line is text.
        if (!(run[0] === '`' && info.includes('`'))) {
          fence = { char: run[0]!, length: run.length };
          return;
        }
      } else {
        if (run[0] === fence.char && run.length >= fence.length && /^\s*$/.test(info)) fence = undefined;
        return;
      }
    }
    if (fence !== undefined) return;
    const heading = /^( {0,3})(#{1,6})([ \t]+.*|[ \t]*)?$/.exec(text);
    if (heading === null) return;
    const title = (heading[3] ?? '')
      .replace(/^[ \t]+/, '')
      .replace(/[ \t]+#+[ \t]*$/, '')
      .replace(/^#+[ \t]*$/, '');
    found.push({ level: heading[2]!.length, text: title.trim(), line });
  });
  return found;
}

// The lines under the first heading `isTarget` takes, up to the next heading
// of its level or above, trailing blanks dropped; undefined when there is no
// such heading.
function sectionBody(body: string, isTarget: (h: Heading) => boolean): string | undefined {
  const lines = body.split('\n');
  const all = headings(lines);
  const at = all.findIndex(isTarget);
  if (at === -1) return undefined;
  const target = all[at]!;
  const end = all.slice(at + 1).find((h) => h.level <= target.level)?.line ?? lines.length;
  return lines
    .slice(target.line + 1, end)
    .join('\n')
    .trimEnd();
}

type FieldName = 'Current Phase' | 'Phase' | 'Status' | 'Paused At' | 'Last activity';

// A field as GSD's stateExtractField finds it, first of: `**Name:** value`
// (indented or not), `Name: value` at a line's start, a two-cell table row
// `| Name | value |`; the name in any case. Null when there is none; the
// value, trimmed, may be empty.
function fieldOf(text: string, name: FieldName): string | null {
  const bold = new RegExp(`^[ \\t]*\\*\\*${name}:\\*\\*[ \\t]*(.+)`, 'im').exec(text);
  if (bold !== null) return bold[1]!.trim();
  const plain = new RegExp(`^${name}:[ \\t]*(.+)`, 'im').exec(text);
  if (plain !== null) return plain[1]!.trim();
  return tableField(text, name);
}

// A row of exactly three pipes, the first at the line's start and the last
// at its end (blanks after it aside), whose two cells split at the pipes
// that are not escaped; the name cell is the name between blanks. Lines end
// at CRLF, CR or LF here, unlike the headings'.
function tableField(text: string, name: FieldName): string | null {
  const nameCell = new RegExp(`^[ \\t]*${name}[ \\t]*$`, 'i');
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (!line.startsWith('|') || line.split('|').length !== 4 || !line.replace(/[ \t]+$/, '').endsWith('|')) continue;
    let inner = line.trim().slice(1);
    if (inner.endsWith('|')) inner = inner.slice(0, -1);
    if (inner.split(/(?<!\\)\|/).length !== 2) continue;
    const second = line.indexOf('|', 1);
    if (!nameCell.test(line.slice(1, second))) continue;
    return line.slice(second + 1, line.indexOf('|', second + 1)).trim();
  }
  return null;
}

// GSD's parsePhaseFromProse: the id a value starts with, after blanks, an
// optional `Phase ` and an optional project code (`CK-`, in any case), up to
// a word's end: `2 of 2 (Tasks)` is 2, `CK-04` is 04, `12.1` is 12.1, `1-2`
// is 1, `v0.5` and `[X]` are none.
function phaseOf(value: string | null): string | undefined {
  if (value === null || value === '') return undefined;
  return phaseIdInProse(value);
}

// ─── The status ─────────────────────────────────────────────────────────────

// GSD's vocabulary (normalizeStateStatus): whole values, lowercased, blanks
// trimmed and runs of them made one space. A Map, so that a status such as
// `constructor` is prose, as it reads, and not an inherited member.
const STATUS_WORDS = new Map<string, StateStatus>([
  ['paused', 'paused'],
  ['stopped', 'paused'],
  ['executing', 'executing'],
  ['in progress', 'executing'],
  ['ready to execute', 'executing'],
  ['planning', 'planning'],
  ['ready to plan', 'planning'],
  ['planning complete', 'planning'],
  ['discussing', 'discussing'],
  ['verifying', 'verifying'],
  ['completed', 'completed'],
  ['done', 'completed'],
  ['complete', 'completed'],
  ['phase complete', 'completed'],
  ['phase complete — ready for verification', 'verifying'],
  ['all phases complete', 'completed'],
  ['milestone complete', 'completed'],
  ['unknown', 'unknown'],
]);

// The statuses GSD's own commands write with a phase or a version in them.
const STATUS_PATTERNS: readonly (readonly [RegExp, StateStatus])[] = [
  [/^executing phase\s+\S+$/, 'executing'],
  [/^planning phase\s+\S+$/, 'planning'],
  [/^verifying phase\s+\S+$/, 'verifying'],
  [/^phase\s+\S+\s+complete$/, 'completed'],
  [/^\S+\s+milestone complete$/, 'completed'],
  [/^complete\s*[\u2713\u2714\u2705\u2611]?$/, 'completed'],
];

// A `paused_at` (or `Paused At:` in `## Session`) that is not empty makes
// any status paused, as in GSD.
function normalisedStatus(raw: string | null, pausedAt: string | null): StateStatus {
  if (pausedAt !== null && pausedAt !== '') return 'paused';
  if (raw === null || raw === '') return 'unknown';
  const key = raw.trim().toLowerCase().replace(/\s+/g, ' ');
  return STATUS_WORDS.get(key) ?? STATUS_PATTERNS.find(([pattern]) => pattern.test(key))?.[1] ?? 'unknown';
}
