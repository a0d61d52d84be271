// One benchmark inside its own process (started by cliBench.ts): prints one JSON line with its figures.
//   floor parse|sha FILE…  read each file in 1 MiB chunks, JSON.parse every line (and one SHA-256 per line for sha)
//   model FILE WORKERS     loadTrace, then the bytes the model keeps after GC, per event
//   checks verify|check model|stream FILE   the checks over the loaded model (as before issue 14 item 3, and as
//                          the viewer runs them), or streamed without a model (as agent-trace verify/check now run)
import '../../src/node/register'; // the core reads through the Node file system
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { loadTrace } from '../../src/core/loadTrace';
import { runChecks } from '../../src/core/formatRules';
import { streamChecks, StreamOutcome } from '../../src/core/stream/streamChecks';

async function floor(path: string, sha: boolean): Promise<number> {
  const handle = await open(path, 'r');
  const chunk = Buffer.allocUnsafe(1 << 20);
  let rest = Buffer.alloc(0);
  let lines = 0;
  for (;;) {
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
    if (bytesRead === 0) break;
    const buf = rest.length > 0 ? Buffer.concat([rest, chunk.subarray(0, bytesRead)]) : chunk.subarray(0, bytesRead);
    let pos = 0;
    for (let nl = buf.indexOf(10, pos); nl >= 0; nl = buf.indexOf(10, pos)) {
      const text = buf.toString('utf8', pos, nl);
      if (JSON.parse(text) !== null) lines++;
      if (sha) createHash('sha256').update(text).digest('hex');
      pos = nl + 1;
    }
    rest = Buffer.from(buf.subarray(pos));
  }
  await handle.close();
  return lines;
}

/** Heap and array buffers in use after a full GC. */
function retained(): number {
  const gc = (global as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

async function main(): Promise<void> {
  const [what, a, b, c, ...more] = process.argv.slice(2);
  const t = performance.now();
  const c0 = process.cpuUsage();
  if (what === 'floor') {
    let lines = 0;
    for (const file of [b, c, ...more].filter((f) => f !== undefined)) lines += await floor(file, a === 'sha');
    const cpu = process.cpuUsage(c0);
    console.log(JSON.stringify({ ms: performance.now() - t, cpuMs: (cpu.user + cpu.system) / 1000, lines }));
    return;
  }
  if (what === 'model') {
    const before = retained();
    const model = await loadTrace(a, { workers: Number(b) });
    const ms = performance.now() - t;
    const after = retained();
    console.log(JSON.stringify({ ms, events: model.events.size, bytesPerEvent: (after - before) / model.events.size, format: model.format, extra: c ?? null }));
    return;
  }
  if (what === 'checks') {
    const mode = a === 'check' ? 'check' : 'verify';
    let outcome: StreamOutcome | 'model' = 'model';
    const r = b === 'model' ? await runChecks(await loadTrace(c), mode) : await streamChecks(c, mode, {}, (o) => (outcome = o));
    console.log(JSON.stringify({ ms: performance.now() - t, checked: r.checked, findings: r.findings.length, outcome }));
    return;
  }
  throw new Error(`unknown benchmark ${what}`);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
