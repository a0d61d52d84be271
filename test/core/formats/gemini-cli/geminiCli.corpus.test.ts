import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runChecks } from '../../../../src/core/formatRules';
import { loadTrace, TraceModel } from '../../../../src/core/loadTrace';
import { summarize } from '../../../../src/core/summary';
import { WRITER_CORPUS, corpusPath } from '../../../helpers/corpus';

type Obj = Record<string, any>;

/** Every file under the Gemini CLI folders of both corpora, so new CLI versions are picked up without edits. */
function corpusFiles(): string[] {
  const roots = [WRITER_CORPUS, corpusPath('outside')];
  const out: string[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.jsonl?$/.test(n)) out.push(p);
    }
  };
  for (const r of roots) for (const d of readdirSync(r)) if (/^gemini-cli-/.test(d)) walk(join(r, d));
  return out;
}

const FILES = corpusFiles();
const linesOf = (p: string) => readFileSync(p, 'utf8').split('\n').filter((l) => l.trim() !== '');
const valuesOf = (p: string): Obj[] => linesOf(p).map((l) => JSON.parse(l));
const isRecording = (p: string) => /\/chats\//.test(p) || /session-/.test(p);
const isStream = (p: string) => !p.endsWith('.json') && valuesOf(p)[0]?.type === 'init';

/** The tool's own totals for a session: the `result` stats of every stream-json run of that session in the corpus. */
function streamTotals(sessionId: string): { input: number; output: number; tools: number } | null {
  let found = false;
  const t = { input: 0, output: 0, tools: 0 };
  for (const f of FILES.filter(isStream)) {
    const vs = valuesOf(f);
    if (vs[0].session_id !== sessionId) continue;
    for (const r of vs.filter((v) => v.type === 'result')) {
      found = true;
      t.input += r.stats.input_tokens;
      t.output += r.stats.output_tokens;
      t.tools += r.stats.tool_calls;
    }
  }
  return found ? t : null;
}

function eventsById(m: TraceModel): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (let i = 0; i < m.events.size; i++) {
    const id = m.events.id(i);
    if (id !== null) out.set(id, [...(out.get(id) ?? []), i]);
  }
  return out;
}

function withTemp(text: string, name: string, f: (p: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'gemini-'));
  const p = join(dir, name);
  writeFileSync(p, text);
  return f(p).finally(() => rmSync(dir, { recursive: true, force: true }));
}

describe('gemini-cli corpus', () => {
  it('has files of every dialect', () => {
    assert.ok(FILES.some(isRecording) && FILES.some(isStream) && FILES.some((f) => f.endsWith('.json')), FILES.join('\n'));
  });

  for (const file of FILES) {
    describe(file.replace(/^.*corpus\//, ''), () => {
      let model: TraceModel;
      before(async () => (model = await loadTrace(file)));

      it('is detected as gemini-cli with its dialect', () => {
        assert.equal(model.format, 'gemini-cli');
        assert.ok(model.detection.confidence >= 0.9);
        const dialect = file.endsWith('.json') ? 'json-output' : isStream(file) ? 'stream-json' : 'chat-recording';
        assert.equal(summarize(model).dialect, dialect);
      });

      it('verifies and checks with no error and no duplicate-id warning', async () => {
        for (const mode of ['verify', 'check'] as const) {
          const r = await runChecks(model, mode);
          assert.deepEqual(r.findings.filter((f) => f.severity !== 'info').map((f) => `${f.rule}@${f.line}`), [], mode);
        }
      });

      if (isRecording(file)) {
        it('shows each message once, at its last version, with its tool calls under it and results under the calls', () => {
          const vs = valuesOf(file);
          const last = new Map<string, number>();
          vs.forEach((v, i) => typeof v.id === 'string' && last.set(v.id, i + 1));
          const ids = eventsById(model);
          for (const [id, line] of last) {
            assert.deepEqual(ids.get(id)?.map((i) => model.events.lineOf(i)), [line], id);
            const msg = vs[line - 1];
            for (const tc of msg.toolCalls ?? []) {
              const [call] = ids.get(tc.id)!;
              assert.equal(ids.get(tc.id)!.length, 1, `tool call ${tc.id} once`);
              assert.equal(model.events.parent(call), ids.get(id)![0]);
            }
            for (const part of Array.isArray(msg.content) ? msg.content : []) {
              if (part.functionResponse) assert.equal(model.events.parent(ids.get(id)![0]), ids.get(part.functionResponse.id)![0]);
            }
          }
        });

        it('totals equal the stream-json result stats of the same session', function () {
          const own = streamTotals(valuesOf(file)[0].sessionId);
          if (!own) this.skip();
          const t = summarize(model).totals;
          assert.deepEqual([t.inputTokens, t.outputTokens, t.toolCalls], [own!.input, own!.output, own!.tools]);
        });
      }

      if (isStream(file)) {
        it('nests every tool_result under its tool_use and takes the totals from the result line', () => {
          const vs = valuesOf(file);
          const useLine = new Map(vs.flatMap((v, i) => (v.type === 'tool_use' ? [[v.tool_id, i + 1] as const] : [])));
          for (let i = 0; i < model.events.size; i++) {
            if (model.events.kindOf(i) !== 'tool_result') continue;
            const v = vs[model.events.lineOf(i) - 1];
            assert.equal(model.events.lineOf(model.events.parent(i)), useLine.get(v.tool_id));
          }
          const result = vs.find((v) => v.type === 'result')!;
          const t = summarize(model).totals;
          assert.deepEqual([t.inputTokens, t.outputTokens, t.toolCalls], [result.stats.input_tokens, result.stats.output_tokens, result.stats.tool_calls]);
        });

        it('finds a removed tool_use line at the result line and at the orphaned result', async function () {
          const ls = linesOf(file);
          const at = ls.findIndex((l) => JSON.parse(l).type === 'tool_use');
          if (at < 0) this.skip();
          const cut = ls.filter((_, i) => i !== at);
          await withTemp(cut.join('\n') + '\n', 'stream.jsonl', async (p) => {
            const m = await loadTrace(p);
            const r = await runChecks(m, 'verify');
            const resultLine = cut.findIndex((l) => JSON.parse(l).type === 'result') + 1;
            const orphan = cut.findIndex((l) => JSON.parse(l).type === 'tool_result') + 1;
            assert.ok(r.findings.some((f) => f.rule === 'gemini-cli/stream-totals' && f.line === resultLine), JSON.stringify(r.findings));
            assert.ok(r.findings.some((f) => f.rule === 'tree/dangling-parent' && f.line === orphan), JSON.stringify(r.findings));
          });
        });
      }

      if (!file.endsWith('.json')) {
        it('finds a torn tail and a cut line at their lines', async () => {
          const ls = linesOf(file);
          const torn = ls.slice(0, -1).join('\n') + '\n' + ls[ls.length - 1].slice(0, 20);
          await withTemp(torn, 'torn.jsonl', async (p) => {
            const r = await runChecks(await loadTrace(p), 'verify');
            assert.ok(r.findings.some((f) => f.line === ls.length && /^parse\//.test(f.rule)), JSON.stringify(r.findings));
          });
          const cut = ls.map((l, i) => (i === 2 ? l.slice(0, Math.floor(l.length / 2)) : l)).join('\n') + '\n';
          await withTemp(cut, 'cut.jsonl', async (p) => {
            const r = await runChecks(await loadTrace(p), 'verify');
            assert.ok(r.findings.some((f) => f.line === 3 && f.rule === 'parse/invalid-json' && f.severity === 'error'));
          });
        });
      }
    });
  }

  it('a recording that lost the tool call\'s message reports the orphaned tool result', async () => {
    const file = FILES.find((f) => isRecording(f) && valuesOf(f).some((v) => v.toolCalls?.length))!;
    const ls = linesOf(file);
    const cut = ls.filter((l) => !JSON.parse(l).toolCalls);
    await withTemp(cut.join('\n') + '\n', 'session-x.jsonl', async (p) => {
      const r = await runChecks(await loadTrace(p), 'check');
      const orphan = cut.findIndex((l) => JSON.stringify(JSON.parse(l).content ?? '').includes('functionResponse')) + 1;
      assert.ok(r.findings.some((f) => f.rule === 'gemini-cli/result-pairing' && f.line === orphan), JSON.stringify(r.findings));
    });
  });

  it('marks a shell command that exits non-zero as a failed call, with its exit code, though the file says success (as every other agent\'s is)', async () => {
    const file = FILES.find((f) => isRecording(f) && readFileSync(f, 'utf8').includes('Exit Code: 2'))!;
    const m = await loadTrace(file);
    const i = Array.from({ length: m.events.size }, (_, k) => k).find((k) => m.events.kindOf(k) === 'tool_call')!;
    assert.equal(m.events.statusOf(i), 'error');
    assert.equal(m.events.labelOf(i), 'run_shell_command: ls /nonexistent → exit 2, 119 ms');
    assert.equal(summarize(m).totals.errors, 1);
  });
});
