// The classifiers of the generative differential: one per documented
// difference a generated case can show, each named after its id in
// docs/reference/differences.md. A classifier recognises its difference from
// the case (the input that triggers it) and from both answers (the shape
// each tool gives it); a case that differs and that no classifier recognises
// fails the run.
import { posix } from 'node:path';

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
// Values as written that YAML 1.2's core schema types, and what they are.
const TYPED = { '0.0': 0, '00': 0, '0x0': 0, '-0': 0, '+0': 0, '1.10': 1.1, '1.1': 1.1, '04': 4, True: true, TRUE: true, true: true, False: false, false: false, '~': null, null: null, Null: null, '': null };
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
    id: 'D52',
    name: '--usage is an unknown flag (GSD prints its usage, exit 0)',
    recognises: (c, gsd, check) =>
      c.meta.form === '--usage' && gsd.status === 0 && /^Usage: gsd-tools /.test(gsd.stdout) && refused(check, /^gsd-check: unknown flag --usage/),
  },
  {
    id: 'D52',
    name: '--version and -V print the version (GSD refuses --version, exit 1, and ignores -V)',
    recognises: (c, gsd, check) =>
      (c.meta.form === '--version' || c.meta.form === '-V') &&
      check.status === 0 &&
      /^gsd-check \d+\.\d+\.\d+( \(source [0-9a-f]+\))?\n$/.test(check.stdout) &&
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
      predicateOf(c)?.kind === 'constructor' && gsd.status === 0 && gsd.verdict === 'output' && refused(check, /^gsd-check: (unknown predicate kind|invalid predicate)/),
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
    recognises: (c, gsd, check) =>
      c.family === 'find-phase' && check.verdict === '' && gsd.verdict.startsWith('.planning/milestones/v1.0-phases/'),
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
    name: "YAML 1.2's typed equality as an addition: 0.0 is 0, True is true, ~ and an empty value are null (GSD compares text)",
    recognises: (c, gsd, check) =>
      c.family === 'frontmatter' &&
      passes(check) &&
      blocks(gsd) &&
      fieldIsTheKey(c) &&
      typeof c.meta.equals !== 'string' &&
      Object.hasOwn(TYPED, c.meta.value) &&
      TYPED[c.meta.value] === c.meta.equals &&
      // GSD read the value, as its text (an empty one as {}).
      JSON.stringify(envelope(gsd).details?.actual) === JSON.stringify(c.meta.value === '' ? {} : c.meta.value),
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
      c.family === 'frontmatter' && c.meta.field === '__proto__' && passes(gsd) && JSON.stringify(c.meta.equals) === '{}' && checkDetails(check).fieldPresent === false,
  },
  {
    id: 'D30',
    name: 'an empty frontmatter is empty (GSD reads the block after it)',
    recognises: (c, gsd, check) => c.family === 'frontmatter' && c.meta.special === 'empty-block-first' && evaluated(check) && checkDetails(check).fieldPresent === false,
  },
  {
    id: 'D30',
    name: 'U+E000 is a character (GSD reads the frontmatter as empty)',
    recognises: (c, gsd, check) => c.family === 'frontmatter' && (gsdRegion(c.meta.text) ?? '').includes('\ue000') && gsdReadNothing(gsd, c) && readableByCheck(check),
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
