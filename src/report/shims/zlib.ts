// node:zlib in the report page (a report embeds the decompressed content, so gzip is never read here).
export function createGunzip(): never {
  throw new Error('gzip is not available in a report');
}
