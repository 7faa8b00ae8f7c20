// docs/how-to/wire-into-a-gsd-project.md, section 6 ("Without GSD at hand"),
// run as written: each `$ ` line of its console blocks, in the project the
// how-to describes, with gsd-check on PATH and no GSD; the lines below it are
// what it must print (stderr's `gsd-check: ` lines apart, durations aside).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { BIN, ROOT, tempDir } from './helpers/support.ts';

const HOW_TO = readFileSync(join(ROOT, 'docs/how-to/wire-into-a-gsd-project.md'), 'utf8');

function section(title: string): string {
  const start = HOW_TO.indexOf(`\n## ${title}\n`);
  assert.notEqual(start, -1, `no section "${title}"`);
  const end = HOW_TO.indexOf('\n## ', start + 1);
  return HOW_TO.slice(start, end === -1 ? undefined : end);
}

function commands(text: string): { command: string; output: string[] }[] {
  const found: { command: string; output: string[] }[] = [];
  for (const block of text.matchAll(/```console\n([\s\S]*?)```/g)) {
    for (const line of block[1]!.split('\n').filter((l) => l !== '')) {
      if (line.startsWith('$ ')) found.push({ command: line.slice(2), output: [] });
      else found.at(-1)!.output.push(line);
    }
  }
  return found;
}

function which(tool: string): string {
  const found = ['/bin', '/usr/bin'].map((dir) => join(dir, tool)).find((path) => existsSync(path));
  assert.ok(found !== undefined, `${tool} is in /bin or /usr/bin`);
  return found;
}

const steady = (lines: string[]) => lines.map((line) => line.replace(/\(\d+ ms\)/, '(N ms)'));

test('how-to section 6 runs as written, without GSD', (t) => {
  const project = tempDir(t);
  mkdirSync(join(project, '.planning/phases/04-ship'), { recursive: true });
  writeFileSync(join(project, '.planning/phases/04-ship/04-01-PLAN.md'), '---\nphase: 04\n---\n# Plan\n');
  writeFileSync(join(project, '.planning/phases/04-ship/04-SECURITY.md'), '---\nthreats_open: 0\n---\n');
  writeFileSync(join(project, '.planning/WINDOWS.md'), '---\nopen_count: 0\n---\n');
  writeFileSync(join(project, '.planning/config.json'), '{"workflow": {"windows_enforce": true}}\n');
  // A PATH of its own: gsd-check and what it needs, never a gsd-tools of the machine's.
  const bin = join(tempDir(t), 'bin');
  mkdirSync(bin);
  symlinkSync(BIN, join(bin, 'gsd-check'));
  symlinkSync(process.execPath, join(bin, 'node'));
  for (const tool of ['sh', 'env']) symlinkSync(which(tool), join(bin, tool));
  const env = { PATH: bin, HOME: join(project, 'home') };
  const steps = commands(section('6. Without GSD at hand'));
  assert.ok(steps.length >= 4, 'the section has its commands');
  for (const { command, output } of steps) {
    const r = spawnSync(join(bin, 'sh'), ['-c', command], { cwd: project, env, encoding: 'utf8' });
    const said = (text: string) => text.split('\n').filter((l) => l !== '');
    assert.deepEqual(
      { stdout: said(r.stdout), stderr: steady(said(r.stderr)) },
      { stdout: output.filter((l) => !l.startsWith('gsd-check: ')), stderr: steady(output.filter((l) => l.startsWith('gsd-check: '))) },
      command,
    );
  }
});
