// node:buffer in the report page: the `buffer` package, plus `isUtf8`, which it lacks.
import { Buffer } from 'buffer';

export { Buffer };
const strict = new TextDecoder('utf-8', { fatal: true });

export function isUtf8(bytes: Uint8Array): boolean {
  try {
    strict.decode(bytes);
    return true;
  } catch {
    return false;
  }
}
