import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { schemaText } from '../../src/cli/help.ts';
import { ROOT } from '../helpers/support.ts';

test('every schema under schemas/, byte for byte, by its name; the names when none is given', () => {
  const files = readdirSync(join(ROOT, 'schemas')).filter((name) => name.endsWith('.schema.json'));
  const names = files.map((file) => file.slice(0, -'.schema.json'.length));
  const listed = schemaText(undefined);
  assert.ok(listed.ok);
  assert.deepEqual(listed.value.trimEnd().split('\n').sort(), names.sort());
  for (const name of names) {
    assert.deepEqual(schemaText(name), { ok: true, value: readFileSync(join(ROOT, 'schemas', `${name}.schema.json`), 'utf8') }, name);
  }
});

test('a name that is no schema is a usage error naming the ones there are', () => {
  for (const name of ['gates', '', 'constructor', '__proto__']) {
    const result = schemaText(name);
    assert.deepEqual(!result.ok && [result.failure.reason, result.failure.message], [
      'usage',
      `no schema named ${JSON.stringify(name)}; one of: predicate, gate, capability, render-hooks (see gsd-check --help)`,
    ]);
  }
});
