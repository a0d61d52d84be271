import { readFile } from 'node:fs/promises';
import { ModelPrice, readPricing } from '../core/usage/prices';
import { UsageError } from './args';

/** Reads `--pricing FILE`; a file that is not a valid price table is a usage error (exit 2) naming the entry. */
export async function pricingOption(file: string | undefined): Promise<Record<string, ModelPrice>> {
  if (file === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    throw new UsageError(`--pricing ${file}: ${err instanceof SyntaxError ? 'not valid JSON' : (err as Error).message}`);
  }
  const { prices, problems } = readPricing(value);
  if (problems.length > 0) throw new UsageError(`--pricing ${file}: ${problems.join('; ')}`);
  return prices;
}
