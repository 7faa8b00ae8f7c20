// A phase's reading by both tools, reduced alike (compat/test/loop-reading
// and loop-generative): whether the phase is ambiguous or has no directory,
// else its first wave whose plans are all summarized (the one --reached
// names) and its verification status (the one /gsd-ship's preflight reads).
import assert from 'node:assert/strict';
import { GSD_CHECK, GSD_TOOLS, NODE, run } from './harness.mjs';

// GSD's answer: find-phase, phase-plan-index, query verification.status.
export async function gsdReads(root, env, phase) {
  const gsd = async (...args) => JSON.parse((await run([NODE, GSD_TOOLS, ...args], { cwd: root, env })).stdout);
  const found = await gsd('find-phase', phase);
  if (found.ambiguous_matches !== undefined) return 'ambiguous';
  if (!found.found) return 'none';
  const index = await run([NODE, GSD_TOOLS, 'phase-plan-index', phase], { cwd: root, env });
  if (index.status !== 0) return 'ambiguous';
  const { plans, waves } = JSON.parse(index.stdout);
  if (plans.length === 0 && index.stdout.includes('"error"')) return 'ambiguous';
  const summarized = new Set(plans.filter((p) => p.has_summary).map((p) => p.id));
  const first = Object.entries(waves)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([, ids]) => ids)
    .find((ids) => ids.every((id) => summarized.has(id)));
  const status = (await gsd('query', 'verification.status', found.directory)).status;
  return `waves:${(first ?? []).join(',')} verification:${status}`;
}

// gsd-check's: a ship run's loop and its preflight row; with `render`, the
// run has GSD render the hooks, and reads the phase through that GSD.
export async function checkReads(root, env, phase, render = false) {
  const whose = render ? ['--render', '--gsd', GSD_TOOLS] : ['--capability', 'cap.json'];
  const args = ['gates', 'run', '--reached', '--ship', '--phase-number', phase, ...whose, '--raw'];
  const result = await run([NODE, GSD_CHECK, ...args], { cwd: root, env });
  if (result.status === 2 && /matches \d+ directories|in a cycle|are one id|is ambiguous/.test(result.stderr)) return 'ambiguous';
  if (result.status === 2 && result.stderr.includes('no directory of')) return 'none';
  assert.equal(result.stderr, '', `${args.join(' ')}: exit ${result.status}`);
  assert.ok(result.status === 0 || result.status === 1, `${args.join(' ')}: exit ${result.status}`);
  const envelope = JSON.parse(result.stdout);
  const wave = envelope.details.loop.points.find((p) => p.point === 'execute:wave:post');
  const done = wave.reached && wave.why.startsWith('every plan of wave') ? /\((.*)\)$/.exec(wave.why)[1].split(', ') : [];
  const ship = envelope.details.points.find((p) => p.point === 'ship:pre');
  const preflight = ship.gates.find((g) => g.capability === 'ship-preflight');
  return `waves:${done.join(',')} verification:${preflight.envelope.details.status}`;
}

// verify-work's reading of a phase, reduced to what --reached shows of it
// (compat/test/loop-verify-work): the phase found, its VERIFICATION.md
// (which, and its status), its UAT.md (which, whether execute-phase wrote it
// from that report, whether verify-work has written it). A fact --reached
// does not show for the tree (which UAT, with a VERIFICATION.md there; the
// UAT's source, without plans) is `?` on both sides. `plans`: whether the
// tree has a plan (never summarized in these trees).
const VERIFY_WORK_STATUSES = ['partial', 'complete', 'diagnosed'];

function verifyWorkLine({ verification, status, uat, fromVerification, ran }, plans) {
  const shown = verification === 'none' ? uat : ran ? uat : '?';
  const from = verification === 'none' && plans && uat !== 'none' ? String(fromVerification) : '?';
  return `found verification:${verification}/${status} uat:${shown} from-verification:${from} verify-work:${ran ? 'ran' : 'not-ran'}`;
}

// GSD's: `init verify-work` (the phase, has_verification, the status it
// routes on), `init phase-op` (the report and UAT GSD picks: verify-work's
// init has no uat_path, though the workflow parses one), `frontmatter get`
// and `phase uat-passed` (GSD's own parse of that UAT: its frontmatter, and
// each test's result as evaluateUatPassed reads it).
export async function gsdVerifyWork(root, env, phase, plans) {
  const gsd = async (...args) => {
    const result = await run([NODE, GSD_TOOLS, ...args], { cwd: root, env });
    assert.equal(result.status, 0, `gsd-tools ${args.join(' ')}: exit ${result.status}\n${result.stderr}`);
    return JSON.parse(result.stdout);
  };
  const init = await gsd('init', 'verify-work', phase);
  if (!init.phase_found) return 'none';
  // Two directories for the phase: init says found, with no directory.
  if (init.phase_dir === null) return 'ambiguous';
  const op = await gsd('init', 'phase-op', phase);
  const relative = (path) => path.slice(root.length + 1);
  const verificationPath = op.verification_path === undefined ? undefined : relative(op.verification_path);
  // init.has_verification is a second reading of the same: hold GSD to itself.
  assert.equal(init.has_verification, verificationPath !== undefined, 'GSD: has_verification against verification_path');
  // verify-work finds a session by `*-UAT.md` (check_active_session), and
  // evaluateUatPassed reads `-UAT` files: a bare UAT.md is neither's.
  const uatPath = op.uat_path === undefined || op.uat_path.endsWith('/UAT.md') ? undefined : relative(op.uat_path);
  let facts = { verification: verificationPath ?? 'none', status: init.phase_completion.verification_status, uat: 'none', fromVerification: false, ran: false };
  if (uatPath !== undefined) {
    const fields = await gsd('frontmatter', 'get', uatPath);
    const source = JSON.stringify(fields.source ?? '');
    const name = uatPath.split('/').at(-1);
    const results = (await gsd('phase', 'uat-passed', phase)).checks.filter((c) => c.file === name).map((c) => c.result);
    facts = {
      ...facts,
      uat: name,
      fromVerification: /VERIFICATION\.md/.test(source),
      ran:
        (typeof fields.status === 'string' && VERIFY_WORK_STATUSES.includes(fields.status.trim())) ||
        results.some((r) => r !== 'pending' && r !== 'missing') ||
        /SUMMARY\.md/.test(source),
    };
  }
  return verifyWorkLine(facts, plans);
}

// gsd-check's: a ship run's loop (verify:pre, execute:post and
// execute:wave:post name the UAT or report they read) and its preflight row
// (the report, its status).
export async function checkVerifyWork(root, env, phase, plans) {
  const args = ['gates', 'run', '--reached', '--ship', '--phase-number', phase, '--capability', 'cap.json', '--raw'];
  const result = await run([NODE, GSD_CHECK, ...args], { cwd: root, env });
  if (result.status === 2 && /matches \d+ directories|is ambiguous/.test(result.stderr)) return 'ambiguous';
  if (result.status === 2 && result.stderr.includes('no directory of')) return 'none';
  assert.equal(result.stderr, '', `${args.join(' ')}: exit ${result.status}`);
  const envelope = JSON.parse(result.stdout);
  const point = (name) => envelope.details.loop.points.find((p) => p.point === name);
  const preflight = envelope.details.points.find((p) => p.point === 'ship:pre').gates.find((g) => g.capability === 'ship-preflight').envelope.details;
  const verification = preflight.file ?? 'none';
  const verify = point('verify:pre');
  const ran = verify.reached;
  const named = (why) => /^(\S+-UAT\.md)\b/.exec(why)?.[1];
  // With no report, execute:post names the UAT (there is no summarized plan
  // here), and execute:wave:post is reached on it only if it is the report's.
  const post = point('execute:post');
  const uat = ran ? named(verify.why) : verification === 'none' && post.reached ? named(post.why) : undefined;
  const wave = point('execute:wave:post');
  return verifyWorkLine(
    { verification, status: preflight.status, uat: uat ?? 'none', fromVerification: wave.reached && named(wave.why) !== undefined, ran },
    plans,
  );
}
