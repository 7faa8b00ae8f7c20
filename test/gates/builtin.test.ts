import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { builtinCapabilities } from '../../src/gates/sources.ts';
import { ROOT } from '../helpers/support.ts';

test("GSD 1.14's built-in gates: 11 gates of 7 capabilities, every one valid, every `when` declared", () => {
  const capabilities = builtinCapabilities();
  assert.deepEqual(
    capabilities.map((c) => `${c.name}:${c.declaration.gates.length}`),
    ['ai-integration:1', 'broken-windows:1', 'drift:4', 'gap-analysis:1', 'security:1', 'tdd:1', 'ui:2'],
  );
  for (const capability of capabilities) {
    assert.deepEqual(capability.declaration.issues, [], capability.name);
    assert.equal(capability.file, undefined, 'no file: GSD_CAP_DIR is not set for them');
  }
  const windows = capabilities.find((c) => c.name === 'broken-windows')!;
  assert.deepEqual([windows.declaration.gates[0]!.declared.when, windows.declaration.keys.get('workflow.windows_enforce')?.default], ['workflow.windows_enforce', false]);
});

test("the test fixtures switch their gates by GSD's own keys, as GSD 1.14 declares them", () => {
  const gsd = new Map(builtinCapabilities().flatMap((c) => [...c.declaration.keys]));
  for (const name of ['broken-windows', 'security', 'tdd']) {
    const fixture = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/capabilities', `${name}.json`), 'utf8')) as {
      config: Record<string, { type: string; default: unknown }>;
      gates: { when?: string }[];
    };
    for (const [key, declared] of Object.entries(fixture.config)) {
      assert.ok(gsd.has(key), `${name}.json declares ${key}, which no gate of GSD 1.14 is switched by`);
      assert.deepEqual([declared.type, declared.default], [gsd.get(key)!.type, gsd.get(key)!.default], `${name}.json: ${key}`);
    }
    for (const gate of fixture.gates) if (gate.when !== undefined) assert.ok(gsd.has(gate.when), `${name}.json: when ${gate.when}`);
  }
});
