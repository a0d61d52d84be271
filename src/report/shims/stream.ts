// node:stream in the report page (used only to decompress .gz traces; a report embeds the plain content).
export function pipeline(): never {
  throw new Error('streams are not available in a report');
}
