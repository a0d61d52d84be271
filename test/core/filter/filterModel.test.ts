import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadTrace } from '../../../src/core/loadTrace';
import { compileFilter } from '../../../src/core/filter/filterCompile';
import { applyFilter } from '../../../src/core/filter/filterModel';
import { WRITER_CORPUS } from '../../helpers/corpus';

// The murmur sample (a real murmur writer's session: 23 events, blobs beside it).
const MURMUR = join(__dirname, '..', '..', '..', 'samples', 'murmur', 'ses_583584f8e94410c93669237ac44d5d21', 'trace.jsonl');
const CLAUDE = join(WRITER_CORPUS, 'claude-code-2.1.332', 'shell-fail', 'projects', '-home-user-project', '3dc26acc-d87d-484b-8039-4fff8b8812ed.jsonl');

/** Lines of the file that pass, as the filter sees them (one event per line in these files). */
async function passingLines(file: string, expr: string): Promise<number[]> {
  const model = await loadTrace(file);
  const f = await applyFilter(model, compileFilter(expr)!);
  const lines: number[] = [];
  for (let i = 0; i < model.events.size; i++) if (f.events(i)) lines.push(model.events.lineOf(i));
  return lines;
}

/** The file's records, parsed here without the loader: the independent side of each comparison. */
function records(file: string): { line: number; rec: Record<string, unknown>; raw: string }[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((raw, k) => ({ line: k + 1, raw }))
    .filter((r) => r.raw.trim() !== '')
    .map((r) => ({ ...r, rec: JSON.parse(r.raw) as Record<string, unknown> }));
}

describe('filter language on corpus traces', () => {
  const murmur = records(MURMUR);

  it('kind: and its negation split a murmur session by event_type', async () => {
    const want = murmur.filter((r) => r.rec.event_type === 'inference').map((r) => r.line);
    assert.ok(want.length > 3);
    assert.deepEqual(await passingLines(MURMUR, 'kind:inference'), want);
    const rest = murmur.filter((r) => r.rec.event_type !== 'inference').map((r) => r.line);
    assert.deepEqual(await passingLines(MURMUR, '-kind:inference'), rest);
    assert.deepEqual(await passingLines(MURMUR, 'not kind:inference'), rest);
  });

  it('makes labels only for the terms that read them (kind: makes none, label: one per event)', async () => {
    const model = await loadTrace(MURMUR);
    const labelOf = model.events.labelOf.bind(model.events);
    let made = 0;
    model.events.labelOf = (i: number) => (made++, labelOf(i));
    const kind = await applyFilter(model, compileFilter('kind:inference status:ok -tool:x')!);
    assert.equal(made, 0);
    assert.ok(Array.from({ length: model.events.size }, (_, i) => kind.events(i)).some(Boolean));
    const label = await applyFilter(model, compileFilter('label:turn')!);
    assert.equal(made, model.events.size);
    const want = Array.from({ length: model.events.size }, (_, i) => labelOf(i).includes('turn'));
    assert.deepEqual(Array.from({ length: model.events.size }, (_, i) => label.events(i)), want);
    assert.ok(want.some(Boolean) && !want.every(Boolean));
  });

  it('tokens>1k counts input plus output tokens of the murmur inference records', async () => {
    const inference = murmur.filter((r) => r.rec.event_type === 'inference');
    const want = inference.filter((r) => (r.rec.input_tokens as number) + (r.rec.output_tokens as number) > 1200).map((r) => r.line);
    assert.ok(want.length > 0 && want.length < inference.length, 'the threshold splits the inferences');
    assert.deepEqual(await passingLines(MURMUR, 'kind:inference tokens>1.2k'), want);
    assert.deepEqual(await passingLines(MURMUR, 'kind:inference tokens<=1200'), murmur
      .filter((r) => r.rec.event_type === 'inference' && (r.rec.input_tokens as number) + (r.rec.output_tokens as number) <= 1200)
      .map((r) => r.line));
  });

  it('text: finds what the raw lines hold', async () => {
    const needle = 'greeting';
    const want = murmur.filter((r) => r.raw.toLowerCase().includes(needle)).map((r) => r.line);
    assert.ok(want.length > 1);
    assert.deepEqual(await passingLines(MURMUR, `text:${needle}`), want);
    assert.deepEqual(await passingLines(MURMUR, 'GREETING'), want, 'a bare word is text, case-insensitive');
  });

  it('line: ranges and "or" unite exactly the lines named', async () => {
    const all = murmur.map((r) => r.line);
    assert.deepEqual(await passingLines(MURMUR, 'line:3..6'), all.filter((l) => l >= 3 && l <= 6));
    assert.deepEqual(await passingLines(MURMUR, 'line:2 or line>=20'), all.filter((l) => l === 2 || l >= 20));
  });

  it('tool: and status: on a real Claude Code session with a failing shell call', async () => {
    const recs = records(CLAUDE);
    // Independent: tool_use blocks named Bash, and the tool_result blocks that answer them.
    type Block = { type?: string; name?: string; id?: string; tool_use_id?: string };
    const blocks = (r: { rec: Record<string, unknown> }): Block[] => {
      const content = (r.rec.message as { content?: unknown } | undefined)?.content;
      return Array.isArray(content) ? (content as Block[]) : [];
    };
    const bashIds = new Set(recs.flatMap((r) => blocks(r).filter((b) => b.type === 'tool_use' && b.name === 'Bash').map((b) => b.id)));
    const want = recs.filter((r) => blocks(r).some((b) => (b.type === 'tool_use' && b.name === 'Bash') || (b.type === 'tool_result' && bashIds.has(b.tool_use_id))));
    assert.ok(bashIds.size > 0);
    assert.deepEqual(await passingLines(CLAUDE, 'tool:bash'), want.map((r) => r.line));
    const errors = recs.filter((r) => r.raw.includes('"is_error":true')).map((r) => r.line);
    assert.ok(errors.length > 0);
    const failed = await passingLines(CLAUDE, 'status:error');
    for (const l of errors) assert.ok(failed.includes(l), `line ${l} holds a failed tool result`);
  });
});
