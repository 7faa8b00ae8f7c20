// Where an artifact is looked for: the phase directory (given, or found from
// the phase number), then the project root.
import assert from 'node:assert/strict';
import { frontmatter } from '../case.mjs';

const SECURITY = frontmatter('SECURITY.md', 'threats_open', 0);
const WINDOWS = frontmatter('WINDOWS.md', 'open_count', 0);
const clean = '---\nthreats_open: 0\n---\n# Security\n';
const open = '---\nthreats_open: 2\n---\n';
const windows = '---\nopen_count: 0\n---\n';
const project = (extra) => ({ 'p/.planning/config.json': '{}', ...extra });

export const ARTIFACT_CASES = [
  {
    name: 'in the given phase directory, as <NN>-SECURITY.md',
    tree: project({ 'p/.planning/phases/04-ship/04-SECURITY.md': clean }),
    cwd: 'p',
    args: ['--predicate', SECURITY, '--phase-dir', '.planning/phases/04-ship', '--raw'],
    gsd: 'pass',
  },
  {
    name: 'a blocking value in the given phase directory',
    tree: project({ 'p/.planning/phases/04-ship/04-SECURITY.md': open }),
    cwd: 'p',
    args: ['--predicate', SECURITY, '--phase-dir', '.planning/phases/04-ship', '--raw'],
    gsd: 'block',
    expect: (gsd, check) => {
      assert.equal(gsd.envelope.message, 'Frontmatter field "threats_open" in SECURITY.md is 2, expected 0');
      assert.equal(check.envelope.message, 'Frontmatter field "threats_open" in .planning/phases/04-ship/04-SECURITY.md is 2, expected 0');
    },
  },
  {
    name: 'at the project root as SECURITY.md, no phase flags',
    tree: project({ 'p/SECURITY.md': clean }),
    cwd: 'p',
    args: ['--predicate', SECURITY, '--raw'],
    gsd: 'pass',
  },
  {
    name: 'at the project root as .planning/WINDOWS.md, no phase flags',
    tree: project({ 'p/.planning/WINDOWS.md': windows }),
    cwd: 'p',
    args: ['--predicate', WINDOWS, '--raw'],
    gsd: 'pass',
  },
  {
    name: 'the project ledger .planning/WINDOWS.md with --phase-dir',
    tree: project({ 'p/.planning/WINDOWS.md': windows, 'p/.planning/phases/04-ship/04-SECURITY.md': clean }),
    cwd: 'p',
    args: ['--predicate', WINDOWS, '--phase-dir', '.planning/phases/04-ship', '--raw'],
    gsd: 'block',
    differs: 'D4',
    check: 'pass',
    expect: (gsd, check) => {
      assert.match(gsd.envelope.message, /^Artifact matching WINDOWS\.md not found in \/.*\/\.planning\/phases\/04-ship$/);
      assert.equal(check.envelope.message, 'Frontmatter field "open_count" matches expected value (0)');
      assert.equal(check.envelope.details.path, '.planning/WINDOWS.md');
    },
  },
  {
    name: 'the workflow call: --phase-number only, SECURITY.md in the phase directory',
    tree: project({ 'p/.planning/phases/04-ship/04-SECURITY.md': clean }),
    cwd: 'p',
    args: ['--predicate', SECURITY, '--phase-number', '04', '--raw'],
    gsd: 'block',
    differs: 'D5',
    check: 'pass',
    expect: (gsd, check) => assert.equal(check.envelope.details.path, '.planning/phases/04-ship/04-SECURITY.md'),
  },
  {
    name: '--phase-number 4 finds 04-ship; 4.1 finds 04.1-hotfix',
    tree: project({
      'p/.planning/phases/04-ship/04-SECURITY.md': open,
      'p/.planning/phases/04.1-hotfix/04.1-SECURITY.md': clean,
    }),
    cwd: 'p',
    args: ['--predicate', SECURITY, '--phase-number', '4.1', '--raw'],
    gsd: 'block',
    differs: 'D5',
    check: 'pass',
    expect: (gsd, check) => assert.equal(check.envelope.details.path, '.planning/phases/04.1-hotfix/04.1-SECURITY.md'),
  },
  {
    name: '--phase-number under GSD_WORKSTREAM searches the workstream phases',
    tree: project({
      'p/.planning/phases/04-ship/04-SECURITY.md': open,
      'p/.planning/workstreams/ws1/phases/04-ship/04-SECURITY.md': clean,
    }),
    cwd: 'p',
    env: { GSD_WORKSTREAM: 'ws1' },
    args: ['--predicate', SECURITY, '--phase-number', '04', '--raw'],
    gsd: 'block',
    differs: 'D5',
    check: 'pass',
    expect: (gsd, check) => assert.equal(check.envelope.details.path, '.planning/workstreams/ws1/phases/04-ship/04-SECURITY.md'),
  },
  // D57: find-phase's two further matches, which gsd-check's lookup does
  // not make: with them, gsd-check would read these reports where GSD's
  // `check predicate` (the root only, D5) reads none and blocks.
  {
    name: '--phase-number of an archived milestone only: both block (find-phase would give the archive)',
    tree: project({ 'p/.planning/phases/05-next/README.md': '# 05\n', 'p/.planning/milestones/v1.0-phases/04-ship/04-SECURITY.md': clean }),
    cwd: 'p',
    args: ['--predicate', SECURITY, '--phase-number', '4', '--raw'],
    gsd: 'block',
    expect: (gsd, check) => assert.deepEqual(check.envelope.details.phaseDirLookup.matches, []),
  },
  {
    name: '--phase-number of a directory named by no phase id: both block (find-phase would give the directory)',
    tree: project({ 'p/.planning/phases/notes/notes-SECURITY.md': clean }),
    cwd: 'p',
    args: ['--predicate', SECURITY, '--phase-number', 'notes', '--raw'],
    gsd: 'block',
    expect: (gsd, check) => assert.deepEqual(check.envelope.details.phaseDirLookup.matches, []),
  },
  {
    name: 'a phase number matching two directories searches the project root only, and says so',
    tree: project({
      'p/.planning/phases/04-a/04-SECURITY.md': clean,
      'p/.planning/phases/04-b/04-SECURITY.md': clean,
    }),
    cwd: 'p',
    args: ['--predicate', SECURITY, '--phase-number', '04', '--raw'],
    gsd: 'block',
    expect: (gsd, check) => {
      assert.equal(check.envelope.details.phaseDirLookup.matches.length, 2);
      assert.match(check.envelope.message, /^Artifact matching SECURITY\.md not found in \//);
    },
  },
  {
    name: 'a phase number matching no directory searches the project root',
    tree: project({ 'p/SECURITY.md': clean }),
    cwd: 'p',
    args: ['--predicate', SECURITY, '--phase-number', '07', '--raw'],
    gsd: 'pass',
    expect: (gsd, check) => assert.deepEqual(check.envelope.details.phaseDirLookup.matches, []),
  },
  {
    name: 'not found anywhere: the message names every directory searched',
    tree: project({ 'p/.planning/phases/04-ship/notes.md': 'x' }),
    cwd: 'p',
    args: ['--predicate', SECURITY, '--phase-dir', '.planning/phases/04-ship', '--raw'],
    gsd: 'block',
    expect: (gsd, check) => {
      assert.equal(check.envelope.message, `Artifact matching SECURITY.md not found in ${check.root}/p/.planning/phases/04-ship or ${check.root}/p`);
    },
  },
  {
    name: 'a phase directory outside the project',
    tree: project({ 'outside/04-SECURITY.md': clean }),
    cwd: 'p',
    args: ['--predicate', SECURITY, '--phase-dir', '../outside', '--raw'],
    gsd: 'error',
  },
  {
    name: 'an artifact that links outside its directory is not read',
    tree: project({ 'secret.md': clean, 'p/.planning/phases/04-ship/04-SECURITY.md': { link: '../../../../secret.md' } }),
    cwd: 'p',
    args: ['--predicate', SECURITY, '--phase-dir', '.planning/phases/04-ship', '--raw'],
    gsd: 'block',
  },
  {
    name: 'from a subdirectory of the project, --phase-dir relative to the project root',
    tree: project({ 'p/.planning/phases/04-ship/04-SECURITY.md': clean, 'p/src/lib': {} }),
    cwd: 'p/src/lib',
    args: ['--predicate', SECURITY, '--phase-dir', '.planning/phases/04-ship', '--raw'],
    gsd: 'pass',
  },
  {
    name: 'of several *-SECURITY.md, the first by bytes: U+FF01 before U+1F600',
    tree: project({
      'p/.planning/phases/04-ship/\u{1f600}-SECURITY.md': open,
      'p/.planning/phases/04-ship/\uff01-SECURITY.md': clean,
    }),
    cwd: 'p',
    args: ['--predicate', SECURITY, '--phase-dir', '.planning/phases/04-ship', '--raw'],
    gsd: 'pass',
  },
  {
    name: 'of several *-SECURITY.md, a directory and a dangling link are passed over',
    tree: project({
      'p/.planning/phases/04-ship/01-SECURITY.md': {},
      'p/.planning/phases/04-ship/02-SECURITY.md': { link: 'nowhere.md' },
      'p/.planning/phases/04-ship/03-SECURITY.md': open,
      'p/.planning/phases/04-ship/04-SECURITY.md': clean,
    }),
    cwd: 'p',
    args: ['--predicate', SECURITY, '--phase-dir', '.planning/phases/04-ship', '--raw'],
    gsd: 'block',
    expect: (gsd, check) => assert.match(check.envelope.message, /03-SECURITY\.md is 2, expected 0$/),
  },
  {
    name: 'a newline in a frontmatter value',
    tree: project({ 'p/.planning/phases/04-ship/04-SECURITY.md': '---\nthreats_open: "1\\ngsd-check: forged"\n---\n' }),
    cwd: 'p',
    args: ['--predicate', SECURITY, '--phase-dir', '.planning/phases/04-ship', '--raw'],
    gsd: 'block',
    expect: (gsd, check) => {
      assert.equal(gsd.envelope.message, 'Frontmatter field "threats_open" in SECURITY.md is 1\ngsd-check: forged, expected 0');
      assert.equal(check.envelope.message, 'Frontmatter field "threats_open" in .planning/phases/04-ship/04-SECURITY.md is 1\\ngsd-check: forged, expected 0');
    },
  },
];
