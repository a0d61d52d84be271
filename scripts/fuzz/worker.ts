// The fuzz worker: runs a seeded fuzz run in this (memory-bounded) process and reports to the parent over IPC:
// the name of each job as it starts (so a hang can be named), progress, and the totals at the end.
import '../../src/node/register'; // the core reads through the Node file system
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusFiles, fuzzRun, loadSources } from '../../test/fuzz/fuzzRun';

async function work(): Promise<void> {
  const seed = Number(process.env.FUZZ_SEED ?? 1);
  const targetLines = Number(process.env.FUZZ_LINES ?? 100_000);
  const dir = mkdtempSync(join(tmpdir(), 'agent-trace-fuzz-'));
  try {
    const sources = await loadSources(corpusFiles());
    let lines = 0;
    const totals = await fuzzRun(sources, {
      seed,
      targetLines,
      dir,
      onStart: (name) => process.send!({ type: 'start', name }),
      onJob: (r, name) => {
        lines += r.lines;
        process.send!({ type: 'job', name, result: r, lines, maxRssKb: process.resourceUsage().maxRSS });
      },
    });
    process.send!({ type: 'done', files: totals.files, sources: sources.length, maxRssKb: process.resourceUsage().maxRSS });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

work().then(
  () => process.disconnect?.(),
  (e) => {
    process.send!({ type: 'error', message: e instanceof Error ? e.stack : String(e) });
    process.disconnect?.();
  },
);
