// CHANGELOG.md, read as Keep a Changelog 1.1.0 writes one: `## [Unreleased]`
// first, then `## [<version>] - <YYYY-MM-DD>` newest first, each section's
// entries under the six headings it allows, and at the bottom a link for
// each section (Unreleased compares the latest tag with HEAD, a version the
// tag before it with its own, the first is its tag). The release refuses a
// version the file has no section for, and a change of the public surface
// must be named in a section (release/surface.mjs): both read it here.

const HEADINGS = new Set(['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security']);
const SECTION = /^## \[([^\]]+)\](?: - (\S+))?\s*$/;
const LINK = /^\[([^\]]+)\]: (\S+)\s*$/;

// The sections in order ({ name, date, body, line }) and the link
// definitions by lower-case name.
export function readChangelog(text) {
  const sections = [];
  const links = new Map();
  text.split('\n').forEach((line, i) => {
    const section = SECTION.exec(line);
    const link = LINK.exec(line);
    if (section) sections.push({ name: section[1], date: section[2], body: '', line: i + 1 });
    else if (link) links.set(link[1].toLowerCase(), link[2]);
    else if (sections.length > 0) sections.at(-1).body += `${line}\n`;
  });
  return { sections, links };
}

// The text of the section `name` (Unreleased, or a version), or undefined.
export function section(text, name) {
  return readChangelog(text).sections.find((s) => s.name === name)?.body;
}

const semver = (v) => /^(\d+)\.(\d+)\.(\d+)(?:-[0-9A-Za-z.-]+)?$/.exec(v)?.slice(1, 4).map(Number);
const newer = (a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

// What in the file is not in that form, one line each (none: it is).
export function changelogProblems(text) {
  const { sections, links } = readChangelog(text);
  const problems = [];
  if (!text.startsWith('# Changelog\n')) problems.push('the first line is not "# Changelog"');
  if (sections[0]?.name !== 'Unreleased') problems.push('the first section is not ## [Unreleased]');
  const versions = sections.filter((s) => s.name !== 'Unreleased');
  for (const s of versions) {
    if (semver(s.name) === undefined) problems.push(`line ${s.line}: ${s.name} is not a version (MAJOR.MINOR.PATCH)`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(s.date ?? '')) problems.push(`line ${s.line}: ${s.name} has no date (## [${s.name}] - YYYY-MM-DD)`);
  }
  if (sections.some((s) => s.name === 'Unreleased' && s.date !== undefined)) problems.push('## [Unreleased] has a date');
  for (let i = 1; i < versions.length; i++) {
    const [a, b] = [semver(versions[i - 1].name), semver(versions[i].name)];
    if (a && b && newer(a, b) <= 0) problems.push(`line ${versions[i].line}: ${versions[i].name} comes after ${versions[i - 1].name}: newest first`);
  }
  for (const s of sections) {
    for (const [, heading] of s.body.matchAll(/^### (.+?)\s*$/gm))
      if (!HEADINGS.has(heading)) problems.push(`## [${s.name}]: ### ${heading} is not one of ${[...HEADINGS].join(', ')}`);
  }
  // Each section's link, and one repository for all of them.
  const base = links.get('unreleased')?.replace(/\/compare\/.*$/, '');
  sections.forEach((s, i) => {
    const before = sections[i + 1]?.name;
    let want;
    if (s.name === 'Unreleased') want = before === undefined ? undefined : `${base}/compare/v${before}...HEAD`;
    else want = before === undefined ? `${base}/releases/tag/v${s.name}` : `${base}/compare/v${before}...v${s.name}`;
    const got = links.get(s.name.toLowerCase());
    if (want !== undefined && got !== want) problems.push(`[${s.name.toLowerCase()}]: ${got ?? 'no link'}, not ${want}`);
  });
  return problems;
}
