// Runs one `npm run bench` section in a process of its own (bench.ts spawns it), so memory figures are not
// those of a process that ran other benchmarks before: `runSection.ts FILE DIR EVENTS`.
import { resolve } from 'node:path';

const [file, dir, events] = process.argv.slice(2);
// eslint-disable-next-line @typescript-eslint/no-require-imports
const mod = require(resolve(file)) as { runBench(dir: string, events: number): Promise<void> };
mod.runBench(dir, Number(events)).catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
