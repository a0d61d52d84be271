// Writes src/core/usage/bundledPrices.ts, the price table bundled into the extension and the CLI, from the installed
// @pydantic/genai-prices package (a devDependency): its providers, their model-matching rules and the token prices of
// each model (input, output, cache read, cache write, 1-hour cache write, reasoning; tiers by prompt size and dated or
// time-of-day periods kept as the package has them). Nothing is fetched at run time: the core reads this file only.
//
// Usage: npm run prices   (after `npm install @pydantic/genai-prices@VERSION`; commit the file it writes)
// The date written is the day the package's version was published (`npm view`); give it with --date YYYY-MM-DD when
// the registry cannot be asked. test/core/usage/bundledPrices.test.ts fails while the file is stale: when it was
// written from another version of the package, or would be written differently from the one installed.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const PACKAGE = '@pydantic/genai-prices';
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const OUT = join(root, 'src', 'core', 'usage', 'bundledPrices.ts');

/** The package's price keys, per million tokens, that the traces' token fields are billed by. */
const RATE_KEYS = {
  input_mtok: 'input',
  output_mtok: 'output',
  cache_read_mtok: 'cacheRead',
  cache_write_mtok: 'cacheWrite',
  cache_write_1h_mtok: 'cacheWrite1h',
  output_reasoning_mtok: 'reasoning',
};
/**
 * Keys of work the traces do not count apart (audio, image, video and document units, web searches, requests, per
 * message or per hour fees): left out. A model is still priced by its tokens; docs/pricing.md says what this misses.
 */
const IGNORED = /(audio|image|video|document|citation|_kcount$|_kpages$|_hours$|_mchars$|_gpixels$)/;

/** The installed package's version and its whole provider list, in the package's own order. */
export async function installedData() {
  const require = createRequire(join(root, 'package.json'));
  // The package's exports map hides its package.json: found from its entry, two folders up (dist/index.cjs).
  const dir = dirname(dirname(require.resolve(PACKAGE)));
  const version = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
  const mod = await import(pathToFileURL(join(dir, 'dist', 'index.js')).href);
  // waitForUpdate() answers the data calcPrice uses: the bundled providers, as long as nothing called updatePrices.
  const providers = await mod.waitForUpdate();
  if (!Array.isArray(providers) || providers.length === 0) throw new Error(`${PACKAGE} ${version}: no provider data`);
  return { version, providers };
}

/** Seconds after UTC midnight of a time of day such as `00:30:00Z` or `09:00:00+08:00` (as the package reads it). */
function secondsOfDay(text) {
  const m = /^(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|([+-])(\d{2}):(\d{2}))$/.exec(text);
  if (!m) throw new Error(`time of day not understood: ${text}`);
  const [, h, min, s, frac = '', zone, sign, oh = '00', om = '00'] = m;
  const local = Number(h) * 3600 + Number(min) * 60 + Number(s) + Number(`0.${frac}`);
  const offset = zone === 'Z' ? 0 : (sign === '+' ? 1 : -1) * (Number(oh) * 60 + Number(om)) * 60;
  return (local - offset + 86400) % 86400;
}

/** A price value: a number, or `{ base, tiers: [[start, price], …] }` (the tier applies when input tokens > start). */
function rate(key, v, where) {
  if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return v;
  if (v && typeof v === 'object' && typeof v.base === 'number' && Array.isArray(v.tiers)) {
    const tiers = [...v.tiers].sort((a, b) => a.start - b.start).map((t) => [t.start, t.price]);
    return { base: v.base, tiers };
  }
  throw new Error(`${where}: ${key} is not a price: ${JSON.stringify(v)}`);
}

/** One period's rates in the table's words, or null when it has no input and output token price. */
function rates(prices, where) {
  const out = {};
  for (const [key, v] of Object.entries(prices)) {
    if (v === undefined) continue;
    if (RATE_KEYS[key]) out[RATE_KEYS[key]] = rate(key, v, where);
    else if (!IGNORED.test(key)) throw new Error(`${where}: price key ${key} is new to scripts/prices.mjs; say how traces are billed by it`);
  }
  return out.input === undefined || out.output === undefined ? null : out;
}

/** A model's periods (the package's `ConditionalPrice` list, or its one price), or null when one is not priced by tokens. */
function periods(model, where) {
  const list = Array.isArray(model.prices) ? model.prices : [{ prices: model.prices }];
  const out = [];
  for (const p of list) {
    const r = rates(p.prices, where);
    if (!r) return null;
    const c = p.constraint;
    if (c === undefined) out.push({ rates: r });
    else if (c.type === 'start_date' || (c.type === undefined && c.start_date)) out.push({ from: c.start_date, rates: r });
    else if (c.type === 'time_of_date' || (c.type === undefined && c.start_time)) out.push({ timeOfDay: [secondsOfDay(c.start_time), secondsOfDay(c.end_time)], rates: r });
    else throw new Error(`${where}: constraint not understood: ${JSON.stringify(c)}`);
  }
  return out;
}

/**
 * The providers a model id alone can select (those with a `model_match`, as calcPrice picks one when it is given no
 * provider) and the providers they fall back to, in the package's order, each with its priced models; and every
 * provider's id and `provider_match`, for ids written `provider/model`.
 */
export function tableOf(providers) {
  const wanted = new Set(providers.filter((p) => p.model_match).map((p) => p.id));
  for (const p of providers) if (wanted.has(p.id)) for (const f of p.fallback_model_providers ?? []) wanted.add(f);
  const bundled = providers.filter((p) => wanted.has(p.id)).map((p) => {
    const models = [];
    for (const m of p.models) {
      const ps = periods(m, `${p.id}/${m.id}`);
      if (ps) models.push([m.id, m.match, ps]);
    }
    return { id: p.id, match: p.model_match ?? null, fallbacks: p.fallback_model_providers ?? [], models };
  });
  const names = providers.map((p) => [p.id, p.provider_match ?? null, wanted.has(p.id)]);
  return { bundled, names };
}

/** The text of src/core/usage/bundledPrices.ts. */
export function render(providers, version, date) {
  const { bundled, names } = tableOf(providers);
  const j = (v) => JSON.stringify(v);
  const lines = [
    `// Generated by scripts/prices.mjs (npm run prices) from ${PACKAGE} ${version}: do not edit by hand.`,
    '// Prices in US dollars per million tokens; see docs/pricing.md for what is taken and what is left out.',
    "import type { BundledProvider, MatchLogic, PriceSource } from './priceTypes';",
    '',
    '/** Where the bundled prices come from: the package, its version and the day that version was published. */',
    `export const PRICE_SOURCE: PriceSource = { name: ${j(PACKAGE)}, version: ${j(version)}, date: ${j(date)} };`,
    '',
    '/** Every provider of the source in its order: id, `provider_match`, and whether its models are bundled. */',
    'export const PROVIDER_NAMES: readonly (readonly [id: string, match: MatchLogic | null, bundled: boolean])[] = [',
    ...names.map((n) => `  ${j(n)},`),
    '];',
    '',
    '/** The providers a model id alone selects (and their fallbacks), in the source\'s order, with their priced models. */',
    'export const BUNDLED_PROVIDERS: readonly BundledProvider[] = [',
  ];
  for (const p of bundled) {
    lines.push(`  { id: ${j(p.id)}, match: ${j(p.match)}, fallbacks: ${j(p.fallbacks)}, models: [`);
    for (const m of p.models) lines.push(`    ${j(m)},`);
    lines.push('  ] },');
  }
  lines.push('];', '');
  return lines.join('\n');
}

/** The version and date the committed file says it was written from. */
export function writtenFrom(text) {
  const m = /export const PRICE_SOURCE: PriceSource = \{ name: "([^"]+)", version: "([^"]+)", date: "([^"]+)" \}/.exec(text);
  return m ? { name: m[1], version: m[2], date: m[3] } : null;
}

function publishDate(version) {
  const arg = process.argv.indexOf('--date');
  if (arg > 0) return process.argv[arg + 1];
  const times = JSON.parse(execFileSync('npm', ['view', `${PACKAGE}@${version}`, 'time', '--json'], { encoding: 'utf8' }));
  const when = times[version];
  if (!when) throw new Error(`npm view gave no publication time for ${PACKAGE}@${version}; pass --date YYYY-MM-DD`);
  return when.slice(0, 10);
}

async function main() {
  const { version, providers } = await installedData();
  let before = null;
  try { before = writtenFrom(readFileSync(OUT, 'utf8')); } catch { /* first run */ }
  const date = before && before.version === version && !process.argv.includes('--date') ? before.date : publishDate(version);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error(`not a date: ${date}`);
  const text = render(providers, version, date);
  writeFileSync(OUT, text);
  const { bundled } = tableOf(providers);
  console.log(`src/core/usage/bundledPrices.ts: ${PACKAGE} ${version} of ${date}, ${bundled.length} providers, ${bundled.reduce((n, p) => n + p.models.length, 0)} models, ${text.length} bytes`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
