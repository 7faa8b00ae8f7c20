import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from '../helpers/bounded.ts';
import { COMMANDS, type CommandName } from '../../src/cli/command-table.ts';
import type { Flag } from '../../src/cli/flag.ts';
import { FLAGS, takes } from '../../src/cli/flag-table.ts';
import { helpText } from '../../src/cli/help.ts';
import { ROOT } from '../helpers/support.ts';

// docs/reference/cli.md's flag tables are rendered from the command table
// here. Each sits between `<!-- flags: <commands> … -->` and
// `<!-- end flags -->` and lists the flags those commands take that no
// table above it lists. After changing a flag, regenerate them with
//   node build.mjs --tests && GSD_CHECK_WRITE_DOCS=1 node --test .test-out/cli/flag-table.test.mjs
const CLI_MD = join(ROOT, 'docs', 'reference', 'cli.md');
const BLOCK = /(<!-- flags: ([^(]*?) \(generated[^\n]*-->\n)[\s\S]*?(<!-- end flags -->)/g;

const label = (flag: Flag): string => `${flag.short === undefined ? '' : `\`-${flag.short}\`, `}\`--${flag.name}\``;
const cell = (text: string): string => text.replaceAll('|', '\\|');

function rendered(markdown: string): string {
  const shown = new Set<string>();
  return markdown.replace(BLOCK, (_all, open: string, names: string, close: string) => {
    const commands = names.split(', ') as CommandName[];
    const flags = FLAGS.filter((flag) => !shown.has(flag.name) && commands.some((command) => takes(flag, command)));
    for (const flag of flags) shown.add(flag.name);
    const rows = flags.map((flag) => `| ${label(flag)} | ${cell(flag.doc.value)} | ${cell(flag.doc.meaning)} |`);
    return `${open}| Flag | Value | Meaning |\n|---|---|---|\n${rows.join('\n')}\n${close}`;
  });
}

test("docs/reference/cli.md's flag tables are the command table's", () => {
  const markdown = readFileSync(CLI_MD, 'utf8');
  const expected = rendered(markdown);
  if (process.env.GSD_CHECK_WRITE_DOCS === '1') writeFileSync(CLI_MD, expected);
  assert.equal(markdown, expected, 'regenerate: see the comment at the top of test/cli/flag-table.test.ts');
  // Every flag is in one of them.
  for (const flag of FLAGS) assert.ok(expected.includes(`\`--${flag.name}\` |`), `--${flag.name} is in no table of cli.md`);
});

test('every flag is in --help; a default it has is said there, once', () => {
  const help = helpText();
  for (const flag of FLAGS) {
    assert.ok(help.includes(`--${flag.name}${flag.hint === undefined ? '' : ` ${flag.hint}`} `), `--help lacks --${flag.name}`);
    if (flag.default !== undefined)
      assert.equal(flag.help.join(' ').split(`(default ${flag.default})`).length, 2, `--${flag.name}'s help says its default once`);
  }
});

test('the table is well formed: names unique, every command takes a flag it lists, switches repeat nothing', () => {
  const names = FLAGS.flatMap((flag) => [flag.name, ...(flag.short === undefined ? [] : [flag.short])]);
  assert.deepEqual(names, [...new Set(names)]);
  for (const flag of FLAGS) {
    assert.match(flag.name, /^[a-z][a-z-]*$/);
    if (flag.hint === undefined) assert.equal(flag.repeatable ?? false, false, flag.name);
    if (flag.commands !== 'any')
      for (const name of flag.commands)
        assert.ok(
          COMMANDS.some((c) => c.name === name),
          name,
        );
  }
});
