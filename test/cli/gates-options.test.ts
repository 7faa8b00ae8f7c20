import assert from 'node:assert/strict';
import { test } from '../helpers/bounded.ts';
import { requestedReports } from '../../src/cli/gates-options.ts';

test('junit=<file> and github, in the order given', () => {
  assert.deepEqual(requestedReports(['github', 'junit=out/a=b.xml']), { ok: true, value: [{ format: 'github' }, { format: 'junit', file: 'out/a=b.xml' }] });
  assert.deepEqual(requestedReports([]), { ok: true, value: [] });
});

test('anything else is a usage error naming the value', () => {
  const message = (values: string[]) => {
    const result = requestedReports(values);
    assert.ok(!result.ok);
    return [result.failure.reason, result.failure.message.replace(/ \(see gsd-check --help\)$/, '')];
  };
  assert.deepEqual(message(['junit']), ['usage', '--report junit needs a file: --report junit=<file>']);
  assert.deepEqual(message(['junit=']), ['usage', '--report junit needs a file: --report junit=<file>']);
  assert.deepEqual(message(['xml']), ['usage', '--report "xml" is not a report; one of: junit=<file>, github']);
  assert.deepEqual(message(['github=x']), ['usage', '--report "github=x" is not a report; one of: junit=<file>, github']);
  assert.deepEqual(message(['junit=a', 'junit=b']), ['usage', '--report junit is given more than once']);
  assert.deepEqual(message(['github', 'github']), ['usage', '--report github is given more than once']);
});
