import { constants } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { ModelPrice, readPricing } from '../core/usage/prices';
import { UsageError } from './args';

/** The largest price file read: a price table is a few KB; a larger file is not one (and /dev/zero never ends). */
export const MAX_PRICING_BYTES = 4 * 1024 * 1024;

/** What a file that is not a regular file is, for the message. */
function kindOf(s: { isDirectory(): boolean; isFIFO(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isSocket(): boolean }): string {
  if (s.isDirectory()) return 'a directory';
  if (s.isFIFO()) return 'a FIFO (named pipe)';
  if (s.isCharacterDevice() || s.isBlockDevice()) return 'a device';
  if (s.isSocket()) return 'a socket';
  return 'a special file';
}

/**
 * The text of a price file: a regular file (stat before open, so a FIFO or a device is never opened and nothing
 * hangs), at most {@link MAX_PRICING_BYTES}, opened without blocking and held to the file stat saw; a UTF-8 byte
 * order mark is dropped.
 */
async function readPriceFile(file: string): Promise<string> {
  const checked = await stat(file);
  if (!checked.isFile()) throw new UsageError(`--pricing ${file}: ${kindOf(checked)}, not a regular file; it is not read`);
  if (checked.size > MAX_PRICING_BYTES) throw new UsageError(`--pricing ${file}: ${checked.size} bytes, over the ${MAX_PRICING_BYTES / 1024 / 1024} MiB limit for a price file`);
  const handle = await open(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const now = await handle.stat();
    if (!now.isFile() || now.dev !== checked.dev || now.ino !== checked.ino) throw new UsageError(`--pricing ${file}: the file changed while it was being opened`);
    const buf = Buffer.alloc(MAX_PRICING_BYTES + 1);
    let at = 0;
    for (let n = 1; n > 0 && at < buf.length; at += n) n = (await handle.read(buf, at, buf.length - at, at)).bytesRead;
    if (at > MAX_PRICING_BYTES) throw new UsageError(`--pricing ${file}: over the ${MAX_PRICING_BYTES / 1024 / 1024} MiB limit for a price file`);
    const text = buf.subarray(0, at).toString('utf8');
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } finally {
    await handle.close();
  }
}

/** Reads `--pricing FILE`; a file that is not a valid price table is a usage error (exit 2) naming the entry. */
export async function pricingOption(file: string | undefined): Promise<Record<string, ModelPrice>> {
  if (file === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(await readPriceFile(file));
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`--pricing ${file}: ${err instanceof SyntaxError ? `not valid JSON (${err.message})` : (err as Error).message}`);
  }
  const { prices, problems } = readPricing(value);
  if (problems.length > 0) throw new UsageError(`--pricing ${file}: ${problems.join('; ')}`);
  return prices;
}
