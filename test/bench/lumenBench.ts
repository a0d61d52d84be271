import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runChecks } from '../../src/core/formatRules';
import { loadTrace } from '../../src/core/loadTrace';

/** Options for {@link generateLumenTrace}. */
export interface LumenTraceOptions {
  /** Approximate file size to reach before the run is closed; default 1 MiB. */
  targetBytes?: number;
  /** Source bytes whose SHA-256 becomes doc_hash; default `fn main() -> Int = 42`. */
  source?: string;
  /** Leave off run_end (and cell_end), as a crashed run would. */
  unfinished?: boolean;
}

type Fields = Record<string, string | number | boolean | Record<string, string | number | boolean> | undefined>;

const HASHED = ['cached', 'cell', 'details', 'doc_hash', 'inputs_hash', 'kind', 'latency_ms', 'message', 'outputs_hash', 'policy_hash', 'prev_hash', 'seq', 'tool_id', 'tool_version'];
const ORDER = ['seq', 'kind', 'prev_hash', 'hash', 'timestamp', 'doc_hash', 'cell', 'tool_id', 'tool_version', 'inputs_hash', 'outputs_hash', 'policy_hash', 'latency_ms', 'cached', 'details', 'message'];
const OPCODES = ['LoadK', 'Move', 'GetField', 'SetIndex', 'NewMap', 'Concat', 'Add', 'Eq', 'Jmp', 'Call', 'Return', 'ToolCall', 'Schema'];
const TOOLS = ['http.get', 'gemini.generate', 'fs.read', 'env.get'];

/** Sorted-key JSON of flat values, written independently of the verifier's canonical writer to cross-check it. */
function sortedJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o).sort().map((k) => `${JSON.stringify(k)}:${sortedJson(o[k])}`).join(',')}}`;
}

/** Writes lines the way lumen's TraceStore does: hash over the 14 hashed fields, serde field order, `\n` after each. */
class ChainWriter {
  seq = 0;
  prev = 'sha256:genesis';
  bytes = 0;
  private clockNs = 1_795_965_628_219_905_992n;
  private readonly parts: string[] = [];

  constructor(private readonly docHash: string) {}

  line(kind: string, fields: Fields, advanceNs = 12_345n): string {
    this.seq += 1;
    const event: Record<string, unknown> = { ...fields, seq: this.seq, kind, prev_hash: this.prev, doc_hash: this.docHash };
    const pre: Record<string, unknown> = {};
    for (const k of HASHED) pre[k] = event[k] ?? null;
    const hash = 'sha256:' + createHash('sha256').update(sortedJson(pre)).digest('hex');
    this.clockNs += advanceNs;
    event.hash = hash;
    event.timestamp = timestamp(this.clockNs);
    this.prev = hash;
    const text = `{${ORDER.filter((k) => event[k] !== undefined).map((k) => `${JSON.stringify(k)}:${JSON.stringify(event[k])}`).join(',')}}\n`;
    this.bytes += Buffer.byteLength(text);
    this.parts.push(text);
    return text;
  }

  take(): string {
    const s = this.parts.join('');
    this.parts.length = 0;
    return s;
  }
}

function timestamp(ns: bigint): string {
  const ms = Number(ns / 1_000_000n);
  const frac = (ns % 1_000_000_000n).toString().padStart(9, '0');
  return new Date(ms).toISOString().slice(0, 19) + '.' + frac + 'Z';
}

/** One call of a helper cell: call_enter, a few VM steps, a tool call, maybe a schema check, call_exit. */
function writeCall(w: ChainWriter, i: number): void {
  const cell = `helper_${i % 7}`;
  w.line('vm_step', { cell: 'main', details: { ip: i % 500, opcode: 'Call' } });
  w.line('call_enter', { cell });
  for (let s = 0; s < 5; s++) w.line('vm_step', { cell, details: { ip: s, opcode: OPCODES[(i + s) % OPCODES.length] } });
  const ok = i % 11 !== 0;
  const latency = (i * 37) % 1500;
  w.line('tool_call', {
    cell, tool_id: TOOLS[i % TOOLS.length], tool_version: '1.0.0', latency_ms: latency, cached: i % 5 === 0, details: { success: ok },
    message: ok ? undefined : `tool execution failed: HTTP request failed: https://api.example.org/v1/items/${i}: status code 503`,
  }, BigInt(latency) * 1_000_000n);
  if (i % 3 === 0) w.line('schema_validate', { cell, details: { schema: 'Digest', valid: true } });
  w.line('call_exit', { cell, details: { result_type: 'String' } });
}

/**
 * Generates a valid Lumen trace (intact chain, realistic lines: calls, VM steps, tool calls, schema checks) of
 * about `targetBytes` at `path`, and returns its line count and head hash.
 */
export async function generateLumenTrace(path: string, options: LumenTraceOptions = {}): Promise<{ lines: number; headHash: string; bytes: number; docHash: string }> {
  const target = options.targetBytes ?? 1 << 20;
  const docHash = 'sha256:' + createHash('sha256').update(options.source ?? 'fn main() -> Int = 42\n').digest('hex');
  const w = new ChainWriter(docHash);
  const out = createWriteStream(path);
  const flush = async (): Promise<void> => {
    if (!out.write(w.take())) await new Promise<void>((r) => out.once('drain', () => r()));
  };
  w.line('run_start', {});
  w.line('cell_start', { cell: 'main' });
  for (let i = 0; w.bytes < target; i++) {
    writeCall(w, i);
    if (i % 256 === 0) await flush();
  }
  if (!options.unfinished) {
    w.line('vm_step', { cell: 'main', details: { ip: 500, opcode: 'Return' } });
    w.line('call_exit', { cell: 'main', details: { result_type: 'Int' } });
    w.line('cell_end', { cell: 'main' });
    w.line('run_end', {});
  }
  out.end(w.take());
  await new Promise<void>((resolve, reject) => out.on('finish', resolve).on('error', reject));
  return { lines: w.seq, headHash: w.prev, bytes: w.bytes, docHash };
}

/** Wall and CPU seconds of one run of `f`. */
async function timed(f: () => Promise<void>): Promise<{ wall: number; cpu: number }> {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  await f();
  const c = process.cpuUsage(c0);
  return { wall: Number(process.hrtime.bigint() - t0) / 1e9, cpu: (c.user + c.system) / 1e6 };
}

/** The floor: read in 1 MiB chunks, decode and JSON.parse every line, one SHA-256 per line. */
async function floorPass(path: string): Promise<void> {
  const handle = await open(path, 'r');
  const chunk = Buffer.allocUnsafe(1 << 20);
  let rest = Buffer.alloc(0);
  let sink = 0;
  for (;;) {
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
    if (bytesRead === 0) break;
    const buf = rest.length > 0 ? Buffer.concat([rest, chunk.subarray(0, bytesRead)]) : chunk.subarray(0, bytesRead);
    let pos = 0;
    for (let nl = buf.indexOf(10, pos); nl >= 0; nl = buf.indexOf(10, pos)) {
      const text = buf.toString('utf8', pos, nl);
      sink += (JSON.parse(text) as { seq: number }).seq;
      sink += createHash('sha256').update(text).digest('hex').length;
      pos = nl + 1;
    }
    rest = Buffer.from(buf.subarray(pos));
  }
  await handle.close();
  if (sink === 0) throw new Error('empty trace');
}

/** Full verification as the CLI runs it: load (detect, adapt, tree) and the verify rules. */
async function verifyPass(path: string): Promise<void> {
  const model = await loadTrace(path);
  const result = await runChecks(model, 'verify');
  if (model.format !== 'lumen' || !result.ok) throw new Error(`bench trace did not verify: ${JSON.stringify(result.findings.slice(0, 3))}`);
}

/** What {@link benchLumen} measures; the `cpu` figures use process CPU time, steadier on a busy machine. */
export interface LumenBenchResult {
  sizeMB: number;
  /** runChecks(model, 'verify') on a loaded model, as in the editor. */
  verifyOnlyMBps: number;
  verifyOnlyRatio: number;
  floorMBps: number;
  verifyMBps: number;
  /** Verify time over floor time (target: at most 1.5). */
  ratio: number;
  floorCpuMBps: number;
  verifyCpuMBps: number;
  cpuRatio: number;
}

/**
 * Generates (once) a ~300 MB lumen trace in `dir` and measures verification throughput against the floor of
 * reading + JSON.parse + one SHA-256 per line. Floor and verify runs alternate, and the best of each counts.
 */
export async function benchLumen(dir: string, targetBytes = 300 * 1024 * 1024, rounds = 3): Promise<LumenBenchResult> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, `bench-${Math.round(targetBytes / (1 << 20))}mb-0f3e6c1a-7b2d-4e59-9a41-5c8d2e7f1b30.jsonl`);
  const existing = await stat(path).catch(() => null);
  if (!existing || existing.size < targetBytes) await generateLumenTrace(path, { targetBytes });
  const sizeMB = (await stat(path)).size / (1 << 20);
  const best = { floor: { wall: Infinity, cpu: Infinity }, verify: { wall: Infinity, cpu: Infinity }, verifyOnly: { wall: Infinity, cpu: Infinity } };
  for (let i = 0; i < rounds; i++) {
    for (const [name, pass] of [['floor', floorPass], ['verify', verifyPass]] as const) {
      const t = await timed(() => pass(path));
      best[name].wall = Math.min(best[name].wall, t.wall);
      best[name].cpu = Math.min(best[name].cpu, t.cpu);
    }
  }
  // Verification alone, as the editor runs it on a trace it has already loaded.
  const model = await loadTrace(path);
  for (let i = 0; i < rounds; i++) {
    const t = await timed(async () => {
      const r = await runChecks(model, 'verify');
      if (!r.ok) throw new Error('bench trace did not verify');
    });
    best.verifyOnly.wall = Math.min(best.verifyOnly.wall, t.wall);
    best.verifyOnly.cpu = Math.min(best.verifyOnly.cpu, t.cpu);
  }
  const round = (x: number) => Math.round(x * 100) / 100;
  return {
    verifyOnlyMBps: round(sizeMB / best.verifyOnly.wall), verifyOnlyRatio: round(best.verifyOnly.wall / best.floor.wall),
    sizeMB: round(sizeMB), floorMBps: round(sizeMB / best.floor.wall), verifyMBps: round(sizeMB / best.verify.wall),
    ratio: round(best.verify.wall / best.floor.wall), floorCpuMBps: round(sizeMB / best.floor.cpu),
    verifyCpuMBps: round(sizeMB / best.verify.cpu), cpuRatio: round(best.verify.cpu / best.floor.cpu),
  };
}

if (require.main === module) {
  const dir = process.argv[2] ?? join(tmpdir(), 'lumen-bench');
  const mb = Number(process.argv[3] ?? 300);
  benchLumen(dir, mb * 1024 * 1024).then((r) => console.log(JSON.stringify(r)), (e) => {
    console.error(e);
    process.exitCode = 1;
  });
}

/** `npm run bench` section: lumen verification throughput next to the bare floor (LUMEN_BENCH_MB to scale). */
export async function runBench(dir: string): Promise<void> {
  const mb = Number(process.env.LUMEN_BENCH_MB ?? 300);
  const r = await benchLumen(dir, mb * 1024 * 1024, 2);
  console.log(`lumen verify: ${r.sizeMB} MB generated chained trace`);
  console.log(`  floor (read + JSON.parse each line + one sha256 per line): ${r.floorMBps} MB/s`);
  console.log(`  verify on a loaded model (chain + all verify rules, as in the editor): ${r.verifyOnlyMBps} MB/s, ${r.verifyOnlyRatio}× the floor (target ≤ 1.5×)`);
  console.log(`  load + verify (as agent-trace verify runs): ${r.verifyMBps} MB/s, ${r.ratio}× the floor (CPU time ${r.cpuRatio}×)`);
}
