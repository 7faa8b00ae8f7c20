// What gsd-check carries of GSD 1.14's registry for `validate`
// (src/gates/gsd-1.14/registry.json, read by src/gates/gsd-registry.ts) is
// what the pinned GSD's registry holds: the names an installed capability
// may not take, and the artifacts GSD's own steps produce where. After
// GSD's pin moves, regenerate it with
//   GSD_CHECK_WRITE_REGISTRY=1 node --test compat/test/registry.test.mjs
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { GSD_TOOLS, REPO } from '../harness.mjs';

const require = createRequire(import.meta.url);
const LIB = join(dirname(GSD_TOOLS), 'lib');
const FILE = join(REPO, 'src', 'gates', 'gsd-1.14', 'registry.json');

// Sorted, so that the file changes only when GSD's registry does.
const sortedObject = (entries) => Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

function expected() {
  const registry = require(join(LIB, 'capability-registry.cjs'));
  const generator = require(join(dirname(GSD_TOOLS), '..', '..', 'scripts', 'gen-capability-registry.cjs'));
  const capabilities = Object.values(registry.capabilities);
  return {
    capabilities: sortedObject(capabilities.map((c) => [c.id, { role: c.role, tier: c.tier }])),
    skills: sortedObject(Object.entries(registry.bySkill)),
    agents: sortedObject(Object.entries(registry.byAgent)),
    commandFamilies: sortedObject(Object.entries(registry.commandFamilies).map(([family, entry]) => [family, entry.capId])),
    configKeys: sortedObject(
      Object.keys({ ...registry.configKeys, ...registry.configSchema }).map((key) => [key, registry.configKeys[key] ?? registry.configSchema[key].owner]),
    ),
    centralConfigKeys: [...generator.loadCentralConfigKeys()].sort(),
    produces: capabilities
      .filter((c) => c.role === 'feature')
      .flatMap((c) => (c.steps ?? []).flatMap((s) => (s.produces ?? []).map((artifact) => [s.point, artifact, c.id])))
      .sort((a, b) => (a.join(' ') < b.join(' ') ? -1 : 1)),
  };
}

test("the registry validate carries is GSD 1.14's", () => {
  const want = `${JSON.stringify(expected(), null, 2)}\n`;
  if (process.env.GSD_CHECK_WRITE_REGISTRY === '1') writeFileSync(FILE, want);
  assert.equal(readFileSync(FILE, 'utf8'), want, 'regenerate: see the comment at the top of compat/test/registry.test.mjs');
});
