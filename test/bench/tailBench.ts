// Live tail on a big open trace (issue 14 item 6): one event appended to an open 1M-event trace should cost work in
// proportion to the appended bytes and be on screen in < 200 ms. Measures, on a copy of the bench's murmur and lumen
// traces: the core reader's append (bytes read, time) and the viewer session's update that follows it (the
// session takes the new model and answers the rows request for the new last row), as the open editor does.
// Printed, never asserted.
import { appendFileSync, copyFileSync, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { openTraceReader } from '../../src/core/traceReader';
import type { HostMessage } from '../../src/protocol';
import { ViewerSession } from '../../src/viewer/viewerSession';
import { generateLumenTrace } from './lumenBench';
import { generateMurmurTrace } from './generateMurmur';

const APPENDS = 5;

/** The last complete line of `file` (read from its tail only). */
function lastLine(file: string): string {
  const size = statSync(file).size;
  const buf = readFileSync(file).subarray(Math.max(0, size - 64 * 1024));
  const lines = buf.toString('utf8').split('\n').filter((l) => l.trim() !== '');
  return lines[lines.length - 1];
}

/** A line like murmur's events, under the session root: its id is new, so the tree takes it as a child. */
function murmurLine(template: string, k: number): string {
  const v = JSON.parse(template) as Record<string, unknown>;
  return JSON.stringify({ ...v, event_type: 'resource_read', event_id: `evt_tail_${k}_${'0'.repeat(20)}`, parent_id: v.parent_id, timestamp: Number(v.timestamp) + k, path: `tail-${k}.txt`, outcome: 'ok' });
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];

async function benchTail(name: string, file: string, nextLine: (k: number) => string): Promise<void> {
  const t0 = performance.now();
  const reader = await openTraceReader(file);
  const openMs = performance.now() - t0;
  let total = 0;
  let version = 0;
  let headerAt = 0;
  const session = new ViewerSession({
    post: (m: HostMessage) => {
      if (m.type === 'rowsState') [version, total] = [m.rowsVersion, m.totalRows];
      if (m.type === 'header') headerAt = performance.now();
    },
  } as never);
  session.setModel(reader.model, 'ready', null);
  await session.handle({ type: 'ready', state: null });
  const core: number[] = [];
  const shown: number[] = [];
  const bytes: number[] = [];
  const how = new Set<string>();
  for (let k = 1; k <= APPENDS; k++) {
    const line = nextLine(k) + '\n';
    appendFileSync(file, line);
    const t = performance.now();
    const r = await reader.append();
    const tCore = performance.now();
    how.add(r.kind === 'needs-full-read' ? `full read: ${r.reason}` : r.kind);
    if (r.kind !== 'appended') continue;
    session.setModel(r.model, 'appended', '1 new event');
    await session.handle({ type: 'requestRows', rowsVersion: version, start: Math.max(0, total - 50), count: 50 });
    core.push(tCore - t);
    shown.push(performance.now() - t);
    bytes.push(r.bytesRead);
  }
  // The whole header (summary, usage rollups) follows the rows on its own, spaced by its cost: how long after.
  const lastShown = performance.now();
  while (headerAt < lastShown && performance.now() - lastShown < 120_000) await new Promise((r) => setTimeout(r, 20));
  session.dispose();
  const headerNote = headerAt >= lastShown ? `the whole header followed ${((headerAt - lastShown) / 1000).toFixed(2)} s after the last append's rows` : 'no header within 120 s';
  console.log(`  ${name}: ${reader.model.events.size} events, ${(statSync(file).size / 2 ** 20).toFixed(0)} MB, opened in ${(openMs / 1000).toFixed(2)} s; appends: ${[...how].join('; ')}`);
  if (core.length === 0) return;
  console.log(`    one event appended: core append median ${median(core).toFixed(1)} ms (read ${median(bytes)} bytes), on screen (session update + last rows) median ${median(shown).toFixed(1)} ms, worst ${Math.max(...shown).toFixed(1)} ms (goal < 200 ms); open ÷ append ${(openMs / median(shown)).toFixed(0)}×; ${headerNote}`);
}

/** `npm run bench` section: appends to copies of the bench's murmur and lumen traces of `events` events. */
export async function runBench(dir: string, events: number): Promise<void> {
  const murmur = join(dir, `murmur-${events}.jsonl`);
  if (!existsSync(murmur)) await generateMurmurTrace(murmur, events);
  // The CLI bench's lumen trace (same name, so it is made once).
  const lumen = join(dir, `cli-lumen-${events}-0f3e6c1a-7b2d-4e59-9a41-5c8d2e7f1b30.jsonl`);
  if (!existsSync(lumen)) await generateLumenTrace(lumen, { targetBytes: events * 390 });
  console.log(`tail: ${APPENDS} appends of one event each to an open trace`);
  const murmurCopy = join(dir, `tail-murmur-${events}.jsonl`);
  copyFileSync(murmur, murmurCopy);
  const template = lastLine(murmurCopy);
  await benchTail('murmur', murmurCopy, (k) => murmurLine(template, k));
  // Lumen's chain makes a made-up line a finding, not a failure: the append path is what is measured.
  const lumenCopy = join(dir, 'tail-lumen-copy.jsonl');
  copyFileSync(lumen, lumenCopy);
  const last = JSON.parse(lastLine(lumenCopy)) as Record<string, unknown>;
  await benchTail('lumen', lumenCopy, (k) => JSON.stringify({ ...last, seq: Number(last.seq) + k, kind: 'vm_step', prev_hash: last.hash }));
}
