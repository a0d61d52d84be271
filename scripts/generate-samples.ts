// Generates samples/: one realistic session per trace format, blobs included, plus tampered copies for the
// verification demo. Deterministic (fixed clock, seeded ids): re-running gives identical bytes.
//
//   node --require tsx/cjs scripts/generate-samples.ts [outDir]     (default: samples/)
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { generateAgentledger } from './samples/agentledger';
import { generateClaudeCode } from './samples/claudeCode';
import { generateCodex } from './samples/codex';
import { SampleFile } from './samples/common';
import { generateDeepstrike } from './samples/deepstrike';
import { generateHarness } from './samples/harness';
import { generateLumen } from './samples/lumen';
import { generateMurmur } from './samples/murmur';
import { generateOtlp } from './samples/otlp';
import { buildReadme } from './samples/readme';
import { tamperLumen, tamperMurmur } from './samples/tampered';

/** First line of the generated README; marks a folder this script may replace. */
const README_MARK = '# Sample traces';

/** Every file of the samples tree, paths relative to the output folder, in a stable order. */
export function buildSamples(): SampleFile[] {
  const murmur = generateMurmur();
  const lumen = generateLumen();
  const files = [
    ...murmur,
    ...generateHarness(),
    ...lumen,
    ...generateAgentledger(),
    ...generateDeepstrike(),
    ...generateClaudeCode(),
    ...generateCodex(),
    ...generateOtlp(),
  ];
  const tampered = [tamperLumen(lumen), tamperMurmur(murmur)];
  return [...files, ...tampered.flatMap((t) => t.files), { path: 'README.md', data: buildReadme(files, tampered) }];
}

/**
 * Writes the samples into `outDir`, replacing an earlier generated tree. Refuses a non-empty folder that this
 * script did not write, so a mistyped path never deletes someone's files.
 */
export function writeSamples(outDir: string): SampleFile[] {
  const files = buildSamples();
  if (existsSync(outDir) && readdirSync(outDir).length > 0) {
    const readme = join(outDir, 'README.md');
    if (!existsSync(readme) || !readFileSync(readme, 'utf8').startsWith(README_MARK)) {
      throw new Error(`${outDir} is not empty and has no generated README.md; refusing to replace it`);
    }
    rmSync(outDir, { recursive: true, force: true });
  }
  for (const f of files) {
    const p = join(outDir, f.path);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, f.data);
  }
  return files;
}

if (require.main === module) {
  const outDir = resolve(process.argv[2] ?? 'samples');
  try {
    const files = writeSamples(outDir);
    process.stdout.write(`wrote ${files.length} files to ${outDir}\n`);
  } catch (err) {
    process.stderr.write(`generate-samples: ${(err as Error).message}\n`);
    process.exitCode = 1;
  }
}
