// The classifiers of the generative differential: one per documented
// difference a generated case can show, each named after its id in
// docs/reference/differences.md. A classifier recognises its difference from
// the case (the input that triggers it) and from both answers (the shape
// each tool gives it); a case that differs and that no classifier recognises
// fails the run.
import { posix } from 'node:path';
import yaml from 'js-yaml';

const envelope = (a) => a.envelope;
// The tool evaluated the predicate: exit 0 and an envelope (printed, or the
// one `--pick` picked from).
const evaluated = (a) => a.status === 0 && a.envelope !== undefined;
const passes = (a) => evaluated(a) && a.envelope.block === false;
const blocks = (a) => evaluated(a) && a.envelope.block === true;
// What a failed check says, in either error form (`--json-errors` prints
// one JSON line): `gsd-check: …` or GSD's `Error: …`.
function errorText(a, prefix) {
  try {
    const line = JSON.parse(a.stderr);
    if (line?.ok === false && typeof line.message === 'string') return `${prefix}${line.message}\n`;
  } catch {
    // not JSON: the plain form
  }
  return a.stderr;
}
const refused = (a, pattern) => a.status === 2 && a.stdout === '' && pattern.test(errorText(a, 'gsd-check: '));
const gsdFailed = (a, pattern) => a.status === 1 && pattern.test(errorText(a, 'Error: '));
const printedHelp = (a) => a.status === 0 && a.stderr === '' && /^Usage: gsd-check /.test(a.stdout);
const flagValue = (argv, flag) => {
  let value;
  for (let i = 0; i < argv.length; i++) if (argv[i] === flag) value = argv[i + 1];
  return value;
};
const predicateOf = (c) => c.meta.predicate;
const isArtifactCase = (c) => c.family === 'frontmatter' || c.family === 'layout';
// GSD read the field as absent: its message says `is undefined`, or, for a
// name Object.prototype has (`__proto__`, `constructor`), shows the inherited
// member it read instead (D30's defect).
const gsdReadNothing = (gsd, c) => {
  const message = envelope(gsd)?.message ?? '';
  if (/^Frontmatter field ".*" in .* is undefined, expected /s.test(message)) return true;
  return c !== undefined && c.meta.field in Object.prototype && message.startsWith(`Frontmatter field "${c.meta.field}" `);
};
const checkDetails = (check) => envelope(check)?.details ?? {};
// The frontmatter region as GSD cuts it: after `---\n` at byte 0, up to the
// next line that starts with `---`.
function gsdRegion(text) {
  const t = text.replace(/^\ufeff/, '');
  const start = t.startsWith('---\r\n') ? 5 : t.startsWith('---\n') ? 4 : -1;
  if (start === -1) return undefined;
  const end = t.indexOf('\n---', start);
  return end === -1 ? undefined : t.slice(start, end);
}
const fieldIsTheKey = (c) => c.meta.field === c.meta.key.replace(/^"(.*)"$/, '$1');
// No shape in the text that gsd-check refuses before the field is compared.
const readableByCheck = (check) => evaluated(check);

// The ways a command reads the phase values as variables of its own shell
// rather than as `${NAME}` placeholders.
const VARIABLE_FORMS = /\$PHASE_|\$\{PHASE_\w+[^}\w]|\$\{#PHASE_|\$\(\([^)]*PHASE_/;
const QUOTED_PLACEHOLDER = /'[^']*\$\{PHASE_(NUMBER|DIR|REQ_IDS)\}[^']*'/;
// A value as written after `key: `, read by js-yaml (the root's, the copy
// GSD vendors) as text (GSD's failsafe schema) and as YAML 1.2's core schema
// types it: the reading D7 adds. Undefined when it is not YAML on its own.
function readings(written) {
  const source = written === '' ? 'v:' : `v: ${written}`;
  try {
    return { text: yaml.load(source, { schema: yaml.FAILSAFE_SCHEMA }).v, typed: yaml.load(source, { schema: yaml.CORE_SCHEMA }).v };
  } catch {
    return undefined;
  }
}
// Typed equality, item by item and key by key (-0 is 0).
function typedSame(a, b) {
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => typedSame(x, b[i]));
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && typedSame(a[k], b[k]));
  }
  return a === b;
}
// GSD's test: the same value, or the same text (JSON for an object).
const gsdSame = (actual, expected) =>
  actual === expected ||
  (actual !== undefined &&
    actual !== null &&
    (typeof actual === 'object' ? JSON.stringify(actual) : String(actual)) === (typeof expected === 'object' ? JSON.stringify(expected) : String(expected)));
// GSD refuses an anchor or alias in a pass of its own over the frontmatter
// before reading it; a YAML error earlier in the text (a line its colon repair
// then fixes) ends that pass before it reaches the anchor.
class AnchorReached extends Error {}
function anchorPassEndsEarly(region) {
  try {
    yaml.load(region, {
      schema: yaml.FAILSAFE_SCHEMA,
      json: true,
      listener: (_, state) => {
        if (state.anchor !== null && state.anchor !== undefined) throw new AnchorReached();
      },
    });
    return false;
  } catch (error) {
    return !(error instanceof AnchorReached);
  }
}
const SESSION_PROBES = ['test -c /dev/stdin', 'ps -o pgid='];

export const CLASSIFIERS = [
  // ─── The command line ─────────────────────────────────────────────────────
  {
    id: 'D13',
    name: 'an unknown flag is refused (GSD ignores it)',
    recognises: (c, gsd, check) => c.meta.form === 'unknown' && refused(check, /^gsd-check: unknown flag --bogus/),
  },
  {
    id: 'D50',
    name: '--flag=value is the flag with its value (GSD reads an unknown flag and ignores it)',
    recognises: (c, gsd, check) => {
      if (c.meta.form !== 'joined') return false;
      const joined = c.argv.find((a) => /^--(predicate|phase-dir|phase-number|phase-req-ids)=/.test(a));
      if (joined === undefined) return false;
      if (joined.startsWith('--predicate=')) return gsdFailed(gsd, /^Error: predicate requires --predicate <json>/);
      return true;
    },
  },
  {
    id: 'D51',
    name: 'a repeated value flag is refused (GSD takes the last)',
    recognises: (c, gsd, check) => c.meta.form === 'repeated' && refused(check, /^gsd-check: --[a-z-]+ is given more than once/),
  },
  {
    id: 'D51',
    name: 'a stray argument is refused (GSD ignores it)',
    recognises: (c, gsd, check) => c.meta.form === 'stray' && refused(check, /^gsd-check: unexpected argument "extra"/),
  },
  {
    id: 'D51',
    name: 'a repeated global flag is refused (GSD keeps the first)',
    recognises: (c, gsd, check) =>
      c.meta.form === 'repeated global' && refused(check, /^gsd-check: --(cwd|project-dir|ws|exit-contract|pick) is given more than once/),
  },
  {
    id: 'D62',
    name: 'a flag of check predicate before the command or between its words is read (GSD fails: an unknown command or subcommand)',
    recognises: (c, gsd, check) =>
      (c.meta.form === 'own first' || c.meta.form === 'own between') &&
      gsdFailed(gsd, c.meta.form === 'own first' ? /^Error: Unknown command: --/ : /^Error: Unknown check subcommand\. /) &&
      check.verdict !== 'error',
  },
  {
    id: 'D52',
    name: "help as the value of one of GSD's global flags is help (GSD takes it as the value and fails on it)",
    recognises: (c, gsd, check) => c.meta.form === 'help' && c.meta.place === 'global-value' && gsd.status === 1 && gsd.stdout === '' && printedHelp(check),
  },
  {
    id: 'D52',
    name: 'after --, a help spelling is a word (GSD has no --, and prints its usage)',
    recognises: (c, gsd, check) =>
      c.meta.form === 'help' &&
      c.meta.place === 'after-end' &&
      gsd.status === 0 &&
      /^Usage: gsd-tools /.test(gsd.stdout) &&
      refused(check, /^gsd-check: unexpected argument "/),
  },
  {
    id: 'D52',
    name: '--version and -V print the version (GSD refuses --version, exit 1, and ignores -V)',
    recognises: (c, gsd, check) =>
      (c.meta.form === '--version' || c.meta.form === '-V') &&
      check.status === 0 &&
      /^gsd-check \d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?( \(source [0-9a-f]+[^)\n]*\))?\n(source [0-9a-f]+: [^\n]*\n)?$/.test(check.stdout) &&
      (c.meta.form === '-V' || gsdFailed(gsd, /^Error: Unknown flag: --version/)),
  },
  {
    id: 'D16',
    name: 'a phase number or requirement text that is not one is refused (GSD pastes it into the command)',
    recognises: (c, gsd, check) =>
      refused(check, /^gsd-check: --phase-(number|req-ids) .* is not (a phase number|a list of requirement ids)/) &&
      (['x y', '$(id)'].includes(flagValue(c.argv, '--phase-number')) || ['REQ-01 (partial), AUTH/01', 'n/a'].includes(flagValue(c.argv, '--phase-req-ids'))),
  },

  // ─── The predicate ────────────────────────────────────────────────────────
  {
    id: 'D14',
    name: 'an unknown field of the predicate is refused (GSD ignores it)',
    recognises: (c, gsd, check) =>
      predicateOf(c) !== undefined &&
      ('timeOut' in predicateOf(c) || 'description' in predicateOf(c)) &&
      refused(check, /^gsd-check: invalid predicate: predicate\.(timeOut|description): unknown field/),
  },
  {
    id: 'D14',
    name: 'an inherited name as kind is unknown (GSD prints the predicate back, exit 0)',
    recognises: (c, gsd, check) =>
      predicateOf(c)?.kind === 'constructor' &&
      gsd.status === 0 &&
      gsd.verdict === 'output' &&
      refused(check, /^gsd-check: (unknown predicate kind|invalid predicate)/),
  },
  {
    id: 'D19',
    name: 'a timeout under a millisecond is enforced (GSD switches it off)',
    recognises: (c, gsd, check) =>
      typeof predicateOf(c)?.timeout === 'number' && predicateOf(c).timeout < 0.001 && blocks(check) && checkDetails(check).timedOut === true,
  },

  // ─── Running the command ──────────────────────────────────────────────────
  {
    id: 'D16',
    name: 'a placeholder inside single quotes stays literal',
    recognises: (c, gsd, check) => c.family === 'command' && QUOTED_PLACEHOLDER.test(predicateOf(c).command) && evaluated(gsd) && evaluated(check),
  },
  {
    id: 'D56',
    name: 'the phase values are variables of the command (unbraced, with an operator, in arithmetic, inherited)',
    recognises: (c, gsd, check) => c.family === 'command' && VARIABLE_FORMS.test(predicateOf(c).command) && evaluated(gsd) && evaluated(check),
  },
  {
    id: 'D54',
    name: 'the command runs in a session of its own, standard input from /dev/null',
    recognises: (c, gsd, check) =>
      c.family === 'command' && SESSION_PROBES.some((p) => predicateOf(c).command.includes(p)) && evaluated(gsd) && evaluated(check),
  },

  // ─── Where the artifact is ────────────────────────────────────────────────
  {
    id: 'D53',
    name: 'an artifact name with a path is refused (GSD finds nothing and blocks)',
    recognises: (c, gsd, check) =>
      isArtifactCase(c) &&
      /[/\\]|^\.{1,2}$/.test(predicateOf(c).artifact) &&
      refused(check, /^gsd-check: invalid predicate: predicate\.artifact: must be a file name, not a path/) &&
      (blocks(gsd) || gsd.status !== 0),
  },
  {
    id: 'D4',
    name: 'found at the project root after the phase directory (GSD looks in the phase directory only)',
    recognises: (c, gsd, check) => {
      const phaseDir = flagValue(c.argv, '--phase-dir') ?? '';
      if (!isArtifactCase(c) || phaseDir === '' || envelope(gsd)?.details?.artifactNotFound !== true) return false;
      const { path } = checkDetails(check);
      return evaluated(check) && typeof path === 'string' && !path.startsWith(`${posix.normalize(phaseDir).replace(/\/$/, '')}/`);
    },
  },
  {
    id: 'D5',
    name: '--phase-number alone finds the phase directory (GSD searches the root only)',
    recognises: (c, gsd, check) => {
      if (!isArtifactCase(c) || (flagValue(c.argv, '--phase-dir') ?? '') !== '') return false;
      const lookup = checkDetails(check).phaseDirLookup;
      const path = checkDetails(check).path;
      return lookup?.matches?.length === 1 && typeof path === 'string' && path.startsWith('.planning/phases/');
    },
  },
  {
    id: 'D57',
    name: 'phase lookup: archived milestones are not searched (GSD find-phase falls back to them)',
    recognises: (c, gsd, check) => c.family === 'find-phase' && check.verdict === '' && gsd.verdict.startsWith('.planning/milestones/v1.0-phases/'),
  },
  {
    id: 'D57',
    name: 'phase lookup: a directory named only by a custom id with no number is not a phase directory',
    recognises: (c, gsd, check) =>
      c.family === 'find-phase' && !/\d/.test(c.argv[0]) && check.verdict === '' && gsd.verdict === `.planning/phases/${c.argv[0]}`,
  },

  // ─── Reading frontmatter ──────────────────────────────────────────────────
  {
    id: 'D7',
    name: "YAML 1.2's typed equality as an addition, item by item in a list or a mapping: 0.0 is 0, [0x0] is [0], True is true, ~ and an empty value are null (GSD compares text)",
    recognises: (c, gsd, check) => {
      if (c.family !== 'frontmatter' || !passes(check) || !blocks(gsd) || !fieldIsTheKey(c)) return false;
      const read = readings(c.meta.value);
      if (read === undefined) return false;
      // GSD read the value as its text (an empty one as {}), and gsd-check
      // read the same text ...
      const text = c.meta.value === '' ? {} : read.text;
      if (JSON.stringify(envelope(gsd).details?.actual) !== JSON.stringify(text)) return false;
      if (c.meta.value !== '' && JSON.stringify(checkDetails(check).actual) !== JSON.stringify(read.text)) return false;
      // ... which does not equal `equals` as text, and does once typed.
      return !gsdSame(text, c.meta.equals) && typedSame(read.typed, c.meta.equals);
    },
  },
  {
    id: 'D8',
    name: 'a key given twice is a check failure (GSD keeps the last)',
    recognises: (c, gsd, check) => c.family === 'frontmatter' && refused(check, /invalid YAML in the frontmatter at line \d+: Map keys must be unique/),
  },
  {
    id: 'D9',
    name: 'frontmatter that is not YAML is a check failure (GSD reads it as empty)',
    recognises: (c, gsd, check) =>
      c.family === 'frontmatter' &&
      refused(check, /invalid YAML in the frontmatter at line \d+: (?!Map keys must be unique)|the frontmatter uses an anchor or alias/) &&
      gsdReadNothing(gsd, c),
  },
  {
    id: 'D9',
    name: "an anchor after a line GSD repairs is refused (GSD's anchor pass stops at that line, and it reads the anchor)",
    recognises: (c, gsd, check) =>
      c.family === 'frontmatter' &&
      refused(check, /the frontmatter uses an anchor or alias/) &&
      evaluated(gsd) &&
      anchorPassEndsEarly(gsdRegion(c.meta.text) ?? ''),
  },
  {
    id: 'D10',
    name: 'fences with trailing blanks, and ... as the end (GSD finds no frontmatter)',
    recognises: (c, gsd, check) =>
      c.family === 'frontmatter' &&
      (c.meta.open === '--- \n' || ['...\n', '---  \n'].includes(c.meta.close)) &&
      gsdReadNothing(gsd, c) &&
      readableByCheck(check),
  },
  {
    id: 'D31',
    name: 'a frontmatter over 64 KiB is a check failure',
    recognises: (c, gsd, check) => c.family === 'frontmatter' && c.meta.special === 'over-64k' && refused(check, /the frontmatter is larger than 64 KiB/),
  },
  // GSD's defects, not copied.
  {
    id: 'D30',
    name: '"field": "__proto__" is not the prototype (GSD reads Object.prototype, {})',
    recognises: (c, gsd, check) =>
      c.family === 'frontmatter' &&
      c.meta.field === '__proto__' &&
      passes(gsd) &&
      JSON.stringify(c.meta.equals) === '{}' &&
      checkDetails(check).fieldPresent === false,
  },
  {
    id: 'D30',
    name: 'an empty frontmatter is empty (GSD reads the block after it)',
    recognises: (c, gsd, check) =>
      c.family === 'frontmatter' && c.meta.special === 'empty-block-first' && evaluated(check) && checkDetails(check).fieldPresent === false,
  },
  {
    id: 'D30',
    name: 'U+E000 is a character (GSD reads the frontmatter as empty)',
    recognises: (c, gsd, check) =>
      c.family === 'frontmatter' && (gsdRegion(c.meta.text) ?? '').includes('\ue000') && gsdReadNothing(gsd, c) && readableByCheck(check),
  },
  // ─── STATE.md ─────────────────────────────────────────────────────────────
  {
    id: 'D66',
    name: "an anchor or alias past a line where GSD's check for them stops is refused (GSD's second parse reads it)",
    recognises: (c, gsd, check) =>
      c.family === 'state' &&
      gsd.verdict !== 'error' &&
      refused(check, /^gsd-check: --current-phase: \S+: its frontmatter uses an anchor or alias \(& or \*\) past a line where GSD's check for them stops/) &&
      anchorPassEndsEarly(gsdRegion(c.meta.text) ?? ''),
  },
  {
    id: 'D66',
    name: 'a STATE.md over 256 KiB is refused (GSD reads it)',
    recognises: (c, gsd, check) =>
      c.family === 'state' &&
      Buffer.byteLength(c.meta.text) > 256 * 1024 &&
      gsd.verdict !== 'error' &&
      refused(check, /^gsd-check: --current-phase: \S+ is larger than 256 KiB\n$/),
  },
  {
    id: 'D55',
    name: '--pick of an object prints the object (GSD prints [object Object])',
    recognises: (c, gsd, check) => c.meta.form === 'pick-details' && gsd.status === 0 && gsd.stdout === '[object Object]' && check.status === 0,
  },
  {
    id: 'D30',
    name: 'an empty value is not {} (GSD reads {})',
    recognises: (c, gsd, check) =>
      c.family === 'frontmatter' && fieldIsTheKey(c) && c.meta.value === '' && JSON.stringify(c.meta.equals) === '{}' && passes(gsd) && blocks(check),
  },
];

// The first classifier that recognises the case, or undefined.
export function classify(c, gsd, check) {
  return CLASSIFIERS.find((k) => k.recognises(c, gsd, check));
}
