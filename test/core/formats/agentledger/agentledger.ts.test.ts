import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runChecks } from '../../../../src/core/formatRules';
import { loadTrace } from '../../../../src/core/loadTrace';
import { cleanup, findingObjects, readLines, writeLines } from './agentledgerTestUtil';
import { corpusPath } from '../../../helpers/corpus';
import { runCliInProcess } from '../../../helpers/cliInProcess';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** Files the TypeScript runtime wrote: the outside store export and the fixture runs (events.jsonl + bundle.json). */
function tsFiles(): string[] {
  const outside = corpusPath('outside/agentledger-ts');
  const fixtures = resolve('test/fixtures/agentledger-ts');
  return [
    ...readdirSync(outside).filter((n) => n.endsWith('.jsonl')).map((n) => join(outside, n)),
    ...readdirSync(fixtures, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => join(fixtures, d.name, 'events.jsonl')),
  ];
}

/** A writable copy of a fixture run. */
function copyFixture(): string {
  const dir = mkdtempSync(join(tmpdir(), 'agentledger-ts-'));
  cpSync(resolve('test/fixtures/agentledger-ts/tool-run'), dir, { recursive: true });
  return dir;
}

/** Rewrites bundle.json through `edit` and re-seals it with the TypeScript runtime's bundle_hash rule. */
function resealBundle(dir: string, edit: (b: Record<string, any>) => void): void {
  const path = join(dir, 'bundle.json');
  const b = JSON.parse(readFileSync(path, 'utf8'));
  edit(b);
  b.bundle_hash = sha256(JSON.stringify({ ...b, bundle_hash: null }));
  writeFileSync(path, JSON.stringify(b, null, 2) + '\n');
}

describe('agentledger TypeScript runtime dialect', () => {
  for (const file of tsFiles()) {
    describe(file.replace(/^.*\/(corpus|fixtures)\//, ''), () => {
      it('is agentledger, and every payload_hash is SHA-256 of its payload_ref text (read independently)', async () => {
        const m = await loadTrace(file);
        assert.equal(m.format, 'agentledger');
        assert.match(m.detection.reason, /TypeScript/);
        for (const line of readLines(file)) {
          const e = JSON.parse(line);
          assert.equal(String(e.payload_hash).replace(/^sha256:/, ''), sha256(e.payload_ref), `seq ${e.seq}`);
        }
      });

      it('verifies with no error or warning, and checks with no error', async () => {
        const v = await findingObjects(file, 'verify');
        assert.deepEqual(v.filter((f) => f.severity !== 'info').map((f) => `${f.rule}@${f.line}: ${f.message}`), []);
        const c = await findingObjects(file, 'check');
        assert.deepEqual(c.filter((f) => f.severity === 'error' || f.rule === 'agentledger/causal-token' || f.rule === 'agentledger/payload-ref-canonical').map((f) => `${f.rule}@${f.line}`), []);
      });
    });
  }

  it('verifies the bundle_hash of the runtime\'s own evidence bundle, and finds an edited bundle', async () => {
    const dir = copyFixture();
    try {
      const events = join(dir, 'events.jsonl');
      assert.ok(!(await findingObjects(events, 'verify')).some((f) => f.rule === 'agentledger/bundle-hash'));
      const path = join(dir, 'bundle.json');
      writeFileSync(path, readFileSync(path, 'utf8').replace('"status": "completed"', '"status": "failed"'));
      const f = (await findingObjects(events, 'verify')).filter((x) => x.rule === 'agentledger/bundle-hash');
      assert.equal(f.length, 1);
      assert.match(f[0].message, /TypeScript runtime's rule/);
    } finally {
      cleanup(dir);
    }
  });

  it('finds an edited payload_ref and an edited payload_hash at their lines', async () => {
    const dir = copyFixture();
    try {
      const events = join(dir, 'events.jsonl');
      const lines = readLines(events);
      const e5 = JSON.parse(lines[4]);
      lines[4] = JSON.stringify({ ...e5, payload_ref: e5.payload_ref.replace('Investigate', 'Ignore') });
      const e9 = JSON.parse(lines[8]);
      lines[8] = JSON.stringify({ ...e9, payload_hash: sha256('something else') });
      writeLines(events, lines);
      const f = (await runChecks(await loadTrace(events), 'verify')).findings.filter((x) => x.rule === 'agentledger/payload-hash');
      assert.deepEqual(f.map((x) => [x.line, x.severity]), [[5, 'error'], [9, 'error']]);
    } finally {
      cleanup(dir);
    }
  });

  it('a ledger digest whose content is not at hand is a warning that says what is missing, not an error', async () => {
    const dir = copyFixture();
    try {
      resealBundle(dir, (b) => {
        const e = b.events.find((x: Record<string, any>) => x.type === 'tool_call_requested');
        const row = { ledger_id: 'ledger_1', run_id: e.run_id, step_id: e.step_id, tool_name: 'ticket.create', causal_token: e.causal_token, idempotency_key: 'k' };
        b.tool_ledger = [
          { ...row, request_hash: e.payload_hash, request_ref: e.payload_ref },
          { ...row, ledger_id: 'ledger_2', request_hash: sha256('a request that is not here'), request_ref: '{"tool":"ticket.create"}' },
        ];
      });
      const f = (await findingObjects(join(dir, 'events.jsonl'), 'verify')).filter((x) => x.rule === 'agentledger/ledger-request-hash');
      assert.equal(f.length, 1, JSON.stringify(f));
      assert.equal(f[0].severity, 'warning');
      assert.match(f[0].message, /ledger_2.*cannot be checked/);
    } finally {
      cleanup(dir);
    }
  });

  describe('span export (traceJSONL of the same run, tool-run/trace.jsonl)', () => {
    const spans = resolve('test/fixtures/agentledger-ts/tool-run/trace.jsonl');

    it('is read as the TypeScript runtime\'s spans, whose payload_hash is SHA-256 of the payload_ref text (read independently)', async () => {
      const m = await loadTrace(spans);
      assert.equal(m.format, 'agentledger');
      assert.match(m.detection.reason, /TypeScript runtime span lines/);
      const lines = readLines(spans);
      assert.equal(lines.length, 12);
      for (const line of lines) {
        const a = JSON.parse(line).attributes;
        assert.equal(String(a['agentledger.payload_hash']).replace(/^sha256:/, ''), sha256(a['agentledger.payload_ref']), line.slice(0, 80));
      }
    });

    it('verifies with exit 0 and no finding next to its bundle, and alone with only the replay digest noted', async () => {
      const r = await runCliInProcess('verify', '--json', spans);
      assert.equal(r.code, 0, r.out + r.err);
      assert.deepEqual(JSON.parse(r.out).findings, []);
      const dir = mkdtempSync(join(tmpdir(), 'agentledger-ts-spans-'));
      try {
        cpSync(spans, join(dir, 'trace.jsonl'));
        const alone = await runCliInProcess('verify', '--json', join(dir, 'trace.jsonl'));
        assert.equal(alone.code, 0, alone.out + alone.err);
        assert.deepEqual(JSON.parse(alone.out).findings.map((f: { rule: string; severity: string }) => `${f.rule}:${f.severity}`), ['agentledger/replay-digest:info']);
      } finally {
        cleanup(dir);
      }
    });

    it('an edited payload_ref and an edited payload_hash are errors at their lines, exit 1', async () => {
      const dir = copyFixture();
      try {
        const path = join(dir, 'trace.jsonl');
        const lines = readLines(path);
        const s5 = JSON.parse(lines[4]);
        s5.attributes['agentledger.payload_ref'] = s5.attributes['agentledger.payload_ref'].replace('Investigate', 'Ignore');
        lines[4] = JSON.stringify(s5);
        const s9 = JSON.parse(lines[8]);
        s9.attributes['agentledger.payload_hash'] = sha256('something else');
        lines[8] = JSON.stringify(s9);
        writeLines(path, lines);
        const r = await runCliInProcess('verify', '--json', path);
        assert.equal(r.code, 1, r.out + r.err);
        const f = JSON.parse(r.out).findings.filter((x: { rule: string }) => x.rule === 'agentledger/payload-hash');
        assert.deepEqual(f.map((x: { line: number; severity: string }) => [x.line, x.severity]), [[5, 'error'], [9, 'error']]);
        assert.match(f[0].message, /SHA-256 of the payload_ref text/);
      } finally {
        cleanup(dir);
      }
    });
  });
});
