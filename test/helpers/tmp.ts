import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';

/** Creates a fresh temporary directory for one test. */
export function tempDir(prefix = 'atv-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Writes `content` to `name` inside a new temporary directory and returns the file's path. */
export function tempFile(name: string, content: string | Buffer, dir = tempDir()): string {
  const p = join(dir, name);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, content);
  return p;
}
