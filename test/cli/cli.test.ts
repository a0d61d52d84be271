import { strict as assert } from 'node:assert';
import { tempFile } from '../helpers/tmp';
import { requireBuiltCli, runCli as cli } from '../helpers/cli';

describe('agent-trace CLI', () => {
  before(requireBuiltCli);

  it('lists its commands with --help and exits 0', () => {
    const r = cli('--help');
    assert.equal(r.code, 0);
    for (const c of ['summary', 'tree', 'verify', 'check', 'sessions', 'usage']) assert.match(r.out, new RegExp(`\\n  ${c} `));
  });

  it('has --help for every command', () => {
    for (const c of ['summary', 'tree', 'verify', 'check', 'sessions', 'usage']) {
      const r = cli(c, '--help');
      assert.equal(r.code, 0, c);
      assert.match(r.out, new RegExp(`^Usage: agent-trace ${c} `), c);
    }
  });

  it('exits 2 with a one-line error naming the file for a missing file', () => {
    for (const c of ['summary', 'tree', 'verify', 'check']) {
      const r = cli(c, 'no/such/trace.jsonl');
      assert.equal(r.code, 2, c);
      assert.equal(r.err.trim().split('\n').length, 1, c);
      assert.match(r.err, /no\/such\/trace\.jsonl: cannot read: no such file/, c);
    }
  });

  it('exits 2 on bad usage', () => {
    assert.equal(cli('frobnicate').code, 2);
    assert.equal(cli('tree').code, 2);
    assert.equal(cli('tree', '--jsn', 'x').code, 2);
    assert.match(cli('summary', '--format', 'nope', 'x').err, /unknown format nope/);
  });

  it('prints tree --json with one node per event and parent lines', () => {
    const p = tempFile('t.jsonl', '{"id":"a","type":"run"}\nnot json\n{"id":"b","parent_id":"a","type":"step"}\n');
    const r = cli('tree', '--json', p);
    assert.equal(r.code, 0);
    const j = JSON.parse(r.out);
    assert.equal(j.format, 'generic');
    assert.deepEqual(j.nodes.map((n: { line: number; id: string; kind: string; parentLine: number | null }) => [n.line, n.id, n.kind, n.parentLine]), [[1, 'a', 'run', null], [3, 'b', 'step', 1]]);
    assert.deepEqual(j.diagnostics.map((d: { rule: string; line: number }) => [d.rule, d.line]), [['parse/invalid-json', 2]]);
  });

  it('prints summary --json with counts of lines and malformed lines', () => {
    const p = tempFile('t.jsonl', '{"id":"a","timestamp":1000}\nnot json\n\n{"id":"b","timestamp":3500}\n');
    const j = JSON.parse(cli('summary', '--json', p).out);
    assert.equal(j.events, 2);
    assert.equal(j.lines, 4);
    assert.equal(j.malformedLines, 1);
    assert.equal(j.blankLines, 1);
    assert.equal(j.durationMs, 2500);
  });

  it('verify --json: exit 1 and the finding at its line when a cycle breaks the tree', () => {
    const p = tempFile('t.jsonl', '{"id":"a","parent_id":"b"}\n{"id":"b","parent_id":"a"}\n');
    const r = cli('verify', '--json', p);
    assert.equal(r.code, 1);
    const j = JSON.parse(r.out);
    assert.deepEqual(Object.keys(j).sort(), ['checked', 'file', 'findings', 'format', 'ok']);
    assert.equal(j.ok, false);
    assert.equal(j.checked, 2);
    assert.deepEqual(j.findings.map((f: { rule: string; line: number; severity: string }) => [f.rule, f.line, f.severity]), [['tree/cycle', 2, 'error']]);
  });

  it('verify exits 0 on an intact generic trace', () => {
    const p = tempFile('t.jsonl', '{"id":"a"}\n{"id":"b","parent_id":"a"}\n');
    const r = cli('verify', '--json', p);
    assert.equal(r.code, 0);
    assert.equal(JSON.parse(r.out).ok, true);
  });

  it('check --sarif prints a SARIF 2.1.0 log with the finding on its line', () => {
    const p = tempFile('t.jsonl', '{"id":"a"}\n{oops\n');
    const r = cli('check', '--sarif', p);
    assert.equal(r.code, 1);
    const s = JSON.parse(r.out);
    assert.equal(s.version, '2.1.0');
    const res = s.runs[0].results[0];
    assert.equal(res.ruleId, 'parse/invalid-json');
    assert.equal(res.level, 'error');
    assert.equal(res.locations[0].physicalLocation.region.startLine, 2);
    assert.equal(s.runs[0].tool.driver.rules[res.ruleIndex].id, 'parse/invalid-json');
  });
});

describe('SARIF output', () => {
  it('validates against the SARIF 2.1.0 schema', () => {
    // The schema ships with @microsoft/jest-sarif; it is draft-04, hence ajv-draft-04.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const Ajv = require('ajv-draft-04');
    const schema = JSON.parse(require('node:fs').readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8'));
    const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
    const validate = ajv.compile(schema);
    const p = tempFile('t.jsonl', '{"id":"a","timestamp":5}\n{oops\n{"id":"b","parent_id":"a","timestamp":1}\n{"id":"a"}\n');
    const log = JSON.parse(cli('check', '--sarif', p).out);
    assert.ok(log.runs[0].results.length >= 2);
    const ok = validate(log);
    assert.ok(ok, JSON.stringify(validate.errors, null, 1));
    const broken = { ...log, version: '2.0.0' };
    assert.equal(validate(broken), false, 'the validator must reject a wrong version');
  });
});
