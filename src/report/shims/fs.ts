// node:fs in the report page: only what the core names at load time; streams are for gzip, which a report never holds.
export const constants = { O_RDONLY: 0, O_NOFOLLOW: 0, R_OK: 4 };
export function createReadStream(): never {
  throw new Error('streams are not available in a report');
}
export function existsSync(): boolean {
  return false;
}
export type Stats = { size: number };
export function statSync(): never {
  const err = new Error('ENOENT: no such file or directory') as Error & { code: string };
  err.code = 'ENOENT';
  throw err;
}
/** A report has no file to read lines from again: the loader then keeps every label (derivedLabels.ts). */
export function openSync(): never {
  throw new Error('files are not available in a report');
}
export function readSync(): never {
  throw new Error('files are not available in a report');
}
export function closeSync(): void {}
