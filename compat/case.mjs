// One differential case, judged. Every case pins what the real GSD answers
// (`gsd`: pass, block or error), so a fixture that breaks both tools alike
// cannot pass unnoticed. Then either gsd-check answers the same (and, for a
// command, ran it in the same directory), or the case names the difference
// (`differs: 'D7'`, documented in docs/reference/differences.md) and pins
// gsd-check's own answer (`check`). `expect(gsd, check)` adds assertions of
// its own: the exact form of a message, an exit status, a file that was read.
import assert from 'node:assert/strict';
import { documentedDifferences, runBoth } from './harness.mjs';

const documented = documentedDifferences();

export const RAN_IN = 'pwd -P > "$COMPAT_RAN_IN"';

export const command = (text = RAN_IN, extra = {}) => JSON.stringify({ kind: 'command-exit-zero', command: text, ...extra });

export const frontmatter = (artifact, field, equals) => JSON.stringify({ kind: 'artifact-frontmatter-equals', artifact, field, equals });

export async function judge(c) {
  const answers = await runBoth(c);
  const { gsd, check } = answers;
  const shown = (a) => `exit ${a.status}, stdout ${JSON.stringify(a.stdout.slice(0, 400))}, stderr ${JSON.stringify(a.stderr.slice(0, 400))}`;
  const context = `\n  gsd-tools: ${shown(gsd)}\n  gsd-check: ${shown(check)}`;

  assert.equal(gsd.verdict, c.gsd, `the real GSD answered ${gsd.verdict}, the case says ${c.gsd}${context}`);
  if (c.differs === undefined) {
    assert.equal(check.verdict, gsd.verdict, `gsd-check answered ${check.verdict} where GSD answered ${gsd.verdict}${context}`);
    assert.equal(check.ranIn, gsd.ranIn, `the command ran in ${check.ranIn} under gsd-check, in ${gsd.ranIn} under GSD${context}`);
  } else {
    assert.ok(documented.has(c.differs), `${c.differs} is not a heading of docs/reference/differences.md`);
    assert.equal(check.verdict, c.check, `gsd-check answered ${check.verdict}, the case (${c.differs}) says ${c.check}${context}`);
  }
  c.expect?.(gsd, check);
}

// node:test cases from a list, each named with the difference it shows.
export function cases(test, list) {
  for (const c of list) {
    test(c.differs === undefined ? c.name : `${c.name} [${c.differs}]`, { skip: c.skip ?? false }, () => judge(c));
  }
}
