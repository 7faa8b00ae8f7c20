import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from './bounded.ts';
import { ROOT } from './support.ts';

// Every test file takes test() from the helper, so every test has its time
// bound; only type imports may come from node:test itself.
test("every test file imports node:test's functions through test/helpers/bounded.ts", () => {
  const files = readdirSync(join(ROOT, 'test'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.test.ts'));
  assert.ok(files.length > 50);
  const direct = files.filter((f) => /^import \{[^}]*\} from 'node:test'/m.test(readFileSync(join(ROOT, 'test', f), 'utf8')));
  assert.deepEqual(direct, []);
});
