// `npm run bench` section: how fast each format reads beside its parse floor. Issue 14's table measures lumen and
// murmur; users open Claude Code, Codex, Gemini CLI and OTLP traces, the other seed runtimes and plain JSONL too.
// Each workload is a file its real writer wrote (test/corpus, test/seed-corpus), repeated to a size: ids in UUID
// form are made new in each copy, so copies are new sessions and runs, not duplicates of one. Times are not moved.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { basename, join } from 'node:path';
import { alternating, CLI, inner, mib, run, Run, sec } from './cliBench';

const ROOT = join(__dirname, '..', '..');
const SHARED = join(ROOT, 'test', 'seed-corpus');

/** Each format's file (its base name is kept: some formats are told by it, as Codex's `rollout-…`). */
const SOURCES: [string, string][] = [
  ['claude-code session', 'test/corpus/claude-code-2.1.332/subagent/projects/-home-user-project/87aba006-238f-4834-a6fa-3396f07d36f4.jsonl'],
  ['claude-code stream-json', 'test/corpus/claude-code-2.1.332/shell-ok/stream-json.jsonl'],
  ['codex rollout', 'test/corpus/codex-0.171.0/shell-ok/sessions/2026/12/01/rollout-2026-12-01T16-25-02-01a2326c-844c-72a2-8812-0ecf1e720fa2.jsonl'],
  ['codex exec --json', 'test/corpus/codex-0.171.0/shell-ok/exec.jsonl'],
  ['gemini-cli chat', 'test/corpus/gemini-cli-0.61.0/shell-ok/tmp/project/chats/session-2026-12-01T16-25-ca4599da.jsonl'],
  ['gemini-cli stream-json', 'test/corpus/gemini-cli-0.61.0/shell-ok/stream-json.jsonl'],
  ['otlp (OpenTelemetry JS)', 'test/corpus/otel-js-2.12.1/otlp-traces-messages.jsonl'],
  ['harness-ledger', join(SHARED, 'harness-ledger', 'success-approvals.jsonl')],
  ['agentledger', join(SHARED, 'agentledger', 'approval-granted', 'events.jsonl')],
  ['deepstrike', join(SHARED, 'deepstrike', 'sdk-python', '5ce9abd6-7731-43aa-8c84-1e53d53666dd.jsonl')],
  ['generic (OpenHands)', join(SHARED, 'outside', 'openhands', 'examples-output.jsonl')],
];

const UUID = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{6})[0-9a-f]{6}/g;

/** `source` repeated to about `bytes`, each copy with its UUIDs' last six digits replaced by the copy's number. */
function repeated(source: string, out: string, bytes: number): void {
  const text = readFileSync(source, 'utf8').replace(/\n$/, '');
  const fd = openSync(out, 'w');
  try {
    for (let copy = 0, size = 0; size < bytes; copy++) {
      const tag = copy.toString(16).padStart(6, '0');
      const chunk = text.replace(UUID, (_, head: string) => head + tag) + '\n';
      writeSync(fd, chunk);
      size += Buffer.byteLength(chunk);
    }
  } finally {
    closeSync(fd);
  }
}

export async function runBench(dir: string): Promise<void> {
  const rounds = Number(process.env.CLI_BENCH_ROUNDS ?? 2);
  const mb = Number(process.env.FORMATS_BENCH_MB ?? 20);
  console.log(`formats: ${availableParallelism()} cores, --workers 0, ${mb} MB of each format, best of ${rounds} alternating runs; load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  for (const [name, rel] of SOURCES) {
    const source = rel.startsWith('/') ? rel : join(ROOT, rel);
    if (!existsSync(source)) {
      console.log(`  ${name}: skipped, ${rel} is missing`);
      continue;
    }
    const folder = join(dir, 'formats', `${mb}mb`, name.replace(/[^a-z0-9]+/gi, '-'));
    mkdirSync(folder, { recursive: true });
    const file = join(folder, basename(source));
    if (!existsSync(file)) repeated(source, file, mb * 2 ** 20);
    // The floor is timed inside its process; a CLI run also starts Node and loads the CLI. That start is timed on
    // the small source file itself and taken off each CLI run before it is divided by the floor.
    const [floor, start, summary, check] = alternating(rounds, [
      (): Run => inner(['floor', 'parse', file]),
      () => run([CLI, 'summary', source, '--json', '--workers', '0']),
      () => run([CLI, 'summary', file, '--json', '--workers', '0']),
      () => run([CLI, 'check', file, '--json', '--workers', '0']),
    ]);
    const s = JSON.parse(summary.stdout) as { format: string; events: number };
    // Copies repeat their times (and ids not in UUID form), so check finds times going backwards where a copy starts.
    const findings = (JSON.parse(check.stdout) as { findings: unknown[] }).findings.length;
    const ratio = (r: Run) => `${sec(r.ms)} s, ${((r.ms - start.ms) / floor.ms).toFixed(2)}× after the start`;
    console.log(`  ${name} (${s.format}, ${s.events} events, ${(statSync(file).size / 2 ** 20).toFixed(0)} MB): parse floor ${sec(floor.ms)} s, CLI start ${sec(start.ms)} s; summary ${ratio(summary)}, peak RSS ${mib(summary)} MiB; check ${ratio(check)} (${findings} findings), peak RSS ${mib(check)} MiB`);
  }
}
