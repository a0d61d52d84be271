import { strict as assert } from 'node:assert';
import { lumenRules } from '../../../../src/core/formats/lumen/rules';
import { brief, editLine, readLines, run, SCHEMA_FAILURE, SUCCESS, TOOL_FAILURE, writeTrace } from './lumenHelpers';

const base = readLines(SUCCESS);
const edit = (lineNo: number, f: (o: Record<string, any>) => void) => base.map((l, i) => (i === lineNo - 1 ? editLine(l, f) : l));

async function check(lines: string[], name?: string) {
  return (await run(writeTrace(lines, { name }), 'check')).result;
}

describe('lumen check: run state machine (§9)', () => {
  it('first event must be run_start', async () => {
    const r = await check(base.slice(1));
    assert.deepEqual(brief(r.findings), ['lumen/first-run-start@1']);
    assert.equal(r.findings[0].message, 'first event must be run_start (got cell_start)');
  });
  it('duplicate run_start', async () => {
    const r = await check([...base.slice(0, 5), base[0], ...base.slice(5)]);
    assert.deepEqual(brief(r.findings), ['lumen/duplicate-run-start@6']);
    assert.match(r.findings[0].message, /^duplicate run_start/);
  });
  it('event after run_end, reported once for the whole tail', async () => {
    const late = (l: string) => editLine(l, (o) => (o.timestamp = JSON.parse(base[59]).timestamp));
    const r = await check([...base, late(base[5]), late(base[6])]);
    assert.deepEqual(brief(r.findings), ['lumen/after-run-end@61']);
    assert.match(r.findings[0].message, /^event after run_end \(run_end is on line 60/);
  });
  it('doc_hash changed within run, once per changed stretch', async () => {
    const other = 'sha256:' + 'a'.repeat(64);
    const lines = base.map((l, i) => (i >= 9 && i <= 11 ? editLine(l, (o) => (o.doc_hash = other)) : l));
    const r = await check(lines);
    assert.deepEqual(brief(r.findings), ['lumen/doc-hash-constant@10']);
    assert.match(r.findings[0].message, new RegExp(`^doc_hash changed within run \\(expected '${JSON.parse(base[0]).doc_hash}'.*got '${other}'`));
  });
  it('trace truncated (no run_end)', async () => {
    const r = await check(base.slice(0, 50));
    assert.deepEqual(r.findings.map((f) => [f.rule, f.severity, f.line]), [['lumen/truncated', 'warning', 50]]);
  });
  it('nested cell_start is an error', async () => {
    const r = await check([...base.slice(0, 10), base[1], ...base.slice(10)]);
    assert.deepEqual(brief(r.findings), ['lumen/nested-cell@11']);
  });
  it('unbalanced call_exit is a warning', async () => {
    const r = await check(edit(17, (o) => (o.cell = 'summarize')));
    assert.deepEqual(r.findings.map((f) => [f.rule, f.severity, f.line]), [['lumen/call-balance', 'warning', 17]]);
    assert.equal(r.findings[0].message, "unbalanced call_exit ('summarize'; the innermost open call is 'fetch_page')");
  });
  it('a lost call_exit shows on the frame\'s later events and on the next return', async () => {
    const r = await check(base.filter((_, i) => i !== 53));
    assert.deepEqual(brief(r.findings), ['lumen/event-cell@54', 'lumen/event-cell@55', 'lumen/event-cell@56', 'lumen/call-balance@57']);
    assert.equal(r.findings[3].message, "unbalanced call_exit ('main'; the innermost open call is 'fetch_page')");
  });
  it('cell_end naming another cell, and run_end with the cell still open', async () => {
    const renamed = await check(edit(59, (o) => (o.cell = 'other')));
    assert.deepEqual(brief(renamed.findings), ['lumen/cell-end@59']);
    assert.equal(renamed.findings[0].message, "cell_end 'other' does not name the open cell 'main'");
    const noEnd = await check(base.filter((_, i) => i !== 58));
    assert.deepEqual(brief(noEnd.findings), ['lumen/cell-end@59']);
  });
  it('vm_step carrying another cell than the current frame', async () => {
    const r = await check(edit(10, (o) => (o.cell = 'main')));
    assert.deepEqual(brief(r.findings), ['lumen/event-cell@10']);
    assert.equal(r.findings[0].message, "vm_step carries cell 'main' but the current frame is 'fetch_page'");
  });
  it('an error inside the cell followed by cell_end pairs the cell as the tree does: no cell-end warning', async () => {
    const cellEnd = base.findIndex((l) => JSON.parse(l).kind === 'cell_end');
    const error = (k: number) => editLine(base[cellEnd], (o) => {
      o.kind = 'error';
      o.message = `tool failed ${k}`;
      delete o.details;
    });
    // Three recoverable errors before the cell's end, the way a long real run writes one per failure.
    const lines = [...base.slice(0, cellEnd), error(1), error(2), error(3), ...base.slice(cellEnd)];
    const r = await check(lines);
    assert.deepEqual(brief(r.findings).filter((f) => f.startsWith('lumen/cell-end') || f.startsWith('lumen/call-balance')), []);
    // The tree pairs the same cell: cell_end is the last child of the cell_start.
    const { model } = await run(writeTrace(lines), 'check');
    const t = model.events;
    let start = -1;
    let end = -1;
    for (let i = 0; i < t.size; i++) {
      if (t.kindOf(i) === 'cell_start') start = i;
      if (t.kindOf(i) === 'cell_end') end = i;
    }
    assert.equal(t.parent(end), start);
  });
  it('the failure runs conform: error ends the cell, run_end follows without cell_end', async () => {
    for (const file of [TOOL_FAILURE, SCHEMA_FAILURE]) assert.deepEqual((await run(file, 'check')).result.findings, []);
  });
});

describe('lumen check: lines and fields', () => {
  it('per-kind fields (tool_call without latency_ms, error without message, vm_step without ip)', async () => {
    const tool = await check(edit(14, (o) => { delete o.latency_ms; }));
    assert.deepEqual(brief(tool.findings), ['lumen/kind-fields@14']);
    assert.match(tool.findings[0].message, /^tool_call lacks or mistypes `latency_ms`/);
    const err = readLines(TOOL_FAILURE).map((l, i) => (i === 26 ? editLine(l, (o) => { delete o.message; }) : l));
    assert.deepEqual(brief((await check(err)).findings), ['lumen/kind-fields@27']);
    const step = await check(edit(3, (o) => { o.details = { opcode: 'LoadK' }; }));
    assert.deepEqual(brief(step.findings), ['lumen/kind-fields@3']);
    assert.match(step.findings[0].message, /`details\.ip`/);
  });
  it('unknown kind, bad timestamp, wrong field types', async () => {
    const r = await check(base.map((l, i) => {
      if (i === 4) return editLine(l, (o) => (o.kind = 'tool_result'));
      if (i === 5) return editLine(l, (o) => (o.timestamp = 'yesterday'));
      if (i === 13) return editLine(l, (o) => (o.cached = 'no'));
      return l;
    }));
    assert.deepEqual(brief(r.findings), ['lumen/kind-known@5', 'lumen/timestamp-rfc3339@6', 'lumen/field-type@14', 'lumen/kind-fields@14']);
    assert.match(r.findings[2].message, /field `cached` must be a boolean or null; found string "no"/);
  });
  it('accepts RFC 3339 with any offset and rejects impossible dates', async () => {
    const ok = await check(edit(4, (o) => (o.timestamp = '2026-11-29T16:36:20.678795361+01:00')));
    assert.deepEqual(ok.findings, []);
    const bad = await check(edit(4, (o) => (o.timestamp = '2026-02-30T10:00:00Z')));
    assert.deepEqual(brief(bad.findings.filter((f) => f.rule.startsWith('lumen/'))), ['lumen/timestamp-rfc3339@4']);
  });
  it('a blank line and invalid JSON are reported with upstream\'s wording', async () => {
    const r = await check([...base.slice(0, 3), '', '{"seq":', ...base.slice(3)]);
    assert.deepEqual(brief(r.findings), ['lumen/line-json@4', 'lumen/line-json@5']);
    assert.match(r.findings[1].message, /^invalid JSON in trace at line 5: /);
  });
  it('a file not named <uuid>.jsonl has no run id', async () => {
    const r = await check(base, 'run.jsonl');
    assert.deepEqual(r.findings.map((f) => [f.rule, f.severity, f.line]), [['lumen/run-id-name', 'info', 1]]);
    assert.match(r.findings[0].message, /run id is unknown/);
  });
});

describe('lumen rule catalog', () => {
  it('names every rule of §11 with its severity, plus lumen/field-type', () => {
    const expected: Record<string, string> = {
      'lumen/line-json': 'error', 'lumen/required-fields': 'error', 'lumen/kind-known': 'error', 'lumen/timestamp-rfc3339': 'error',
      'lumen/hash-format': 'error', 'lumen/chain-seq': 'error', 'lumen/chain-genesis': 'error', 'lumen/chain-prev-hash': 'error',
      'lumen/event-hash': 'error', 'lumen/chain-first-failure': 'info', 'lumen/unknown-key': 'warning', 'lumen/float-in-details': 'info',
      'lumen/first-run-start': 'error', 'lumen/duplicate-run-start': 'error', 'lumen/after-run-end': 'error', 'lumen/doc-hash-constant': 'error',
      'lumen/truncated': 'warning', 'lumen/nested-cell': 'error', 'lumen/call-balance': 'warning', 'lumen/cell-end': 'warning',
      'lumen/event-cell': 'warning', 'lumen/kind-fields': 'error', 'lumen/run-id-name': 'info', 'lumen/doc-hash-resolve': 'info',
      'lumen/field-type': 'error',
    };
    const actual = Object.fromEntries(lumenRules.rules.map((r) => [r.id, r.severity]));
    assert.deepEqual(actual, expected);
    for (const r of lumenRules.rules) assert.ok(r.summary.length > 0 && r.explanation.length > 80, r.id);
    assert.match(lumenRules.rules.find((r) => r.id === 'lumen/truncated')!.explanation, /only detectable against an expected end/);
  });
});
