import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './support.ts';

// For the tests of release.mjs and release/surface.mjs, which work in a copy
// of this checkout's release files: the copy's own surface (src/ as this
// checkout has it) written as its release's record, so that what the
// checkout changed since the last release is no part of those tests.
export function recordedAsReleased(dir: string): void {
  const script = `const m = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'release', 'surface.mjs')).href)}); const fs = await import('node:fs'); const { version } = JSON.parse(fs.readFileSync(m.SURFACE_FILE, 'utf8')); fs.writeFileSync(m.SURFACE_FILE, m.surfaceText(version, await m.publicSurface('.')));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
}

// This checkout's CHANGELOG.md as cutting its version leaves it: nothing
// Unreleased.
export const releasedChangelog = (): string => readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8').replace(/(## \[Unreleased\]\n)[\s\S]*?(?=## \[)/, '$1\n');
