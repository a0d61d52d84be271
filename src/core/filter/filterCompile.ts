/** Turns a parsed filter into a predicate over {@link FilterSubject}s, checking fields and values. */
import { FILTER_FIELDS, filterField, readNumber, STATUS_VALUES, unitsOf, type FilterField, type FilterSubject } from './filterFields';
import { parseFilter } from './filterParser';
import { FilterError, type FilterNode, type FilterTerm } from './filterSyntax';

/** Says whether the subject's text (its JSON line) holds needle number `k` of the filter. */
export type TextHit = (needle: number) => boolean;

/** A compiled filter: the predicate and the text needles it needs looked up in lines. */
export interface CompiledFilter {
  /** The expression as written. */
  source: string;
  test(subject: FilterSubject, textHit: TextHit): boolean;
  /** Lower-cased `text:` values, in the order `TextHit` numbers them. */
  needles: string[];
}

type Test = (s: FilterSubject, hit: TextHit) => boolean;

/**
 * Parses and compiles `source`; null for an empty expression. Throws {@link FilterError} (with a column) for
 * bad syntax, an unknown field, a value the field cannot take or an operator it does not support.
 */
export function compileFilter(source: string): CompiledFilter | null {
  const ast = parseFilter(source);
  if (!ast) return null;
  const needles: string[] = [];
  const test = compileNode(ast, needles);
  return { source, test, needles };
}

function compileNode(n: FilterNode, needles: string[]): Test {
  switch (n.type) {
    case 'and': {
      const parts = n.items.map((x) => compileNode(x, needles));
      return (s, h) => parts.every((p) => p(s, h));
    }
    case 'or': {
      const parts = n.items.map((x) => compileNode(x, needles));
      return (s, h) => parts.some((p) => p(s, h));
    }
    case 'not': {
      const inner = compileNode(n.item, needles);
      return (s, h) => !inner(s, h);
    }
    case 'term':
      return compileTerm(n, needles);
  }
}

function compileTerm(t: FilterTerm, needles: string[]): Test {
  const field = filterField(t.field);
  if (!field) {
    throw new FilterError(`unknown field "${t.field}" (fields: ${FILTER_FIELDS.map((f) => f.name).join(', ')}; quote text that holds a colon)`, t.column);
  }
  if (field.type !== 'number' && t.op !== ':' && t.op !== '=') throw new FilterError(`"${t.field}" takes ":" (not "${t.op}")`, t.column);
  if (t.value === '') throw new FilterError(`"${t.field}" needs a value`, t.valueColumn);
  switch (field.type) {
    case 'name':
    case 'label':
      return nameTest(field, t);
    case 'status':
      return statusTest(t);
    case 'number':
      return numberTest(field, t);
    case 'text': {
      const k = needles.push(t.value.toLowerCase()) - 1;
      const needle = needles[k];
      return (s, hit) => textOf(s).some((v) => v.toLowerCase().includes(needle)) || hit(k);
    }
  }
}

/** The subject's own texts that `text:` sees besides its JSON line (which the caller looks up). */
function textOf(s: FilterSubject): string[] {
  const out = [s.label, s.kind];
  if (s.id !== null) out.push(s.id);
  if (s.tool !== null) out.push(s.tool);
  if (s.model !== null) out.push(s.model);
  return out;
}

/** `name:a,b*`: any alternative; exact unless it has `*` or `?` (labels: contained). Case-insensitive. */
function nameTest(field: FilterField, t: FilterTerm): Test {
  const alts = t.quoted ? [t.value] : t.value.split(',').filter((v) => v !== '');
  if (alts.length === 0) throw new FilterError(`"${t.field}" needs a value`, t.valueColumn);
  const contains = field.type === 'label';
  const matchers = alts.map((a) => valueMatcher(a, t.quoted, contains));
  const get = field.get!;
  return (s) => {
    const v = get(s);
    return v !== null && matchers.some((m) => m(v));
  };
}

function valueMatcher(pattern: string, quoted: boolean, contains: boolean): (v: string) => boolean {
  const p = pattern.toLowerCase();
  if (quoted || !/[*?]/.test(p)) return contains ? (v) => v.toLowerCase().includes(p) : (v) => v.toLowerCase() === p;
  const glob = compileGlob(p, contains);
  return (v) => glob(v.toLowerCase());
}

/**
 * A glob (`*`: any run of characters, `?`: any one UTF-16 unit) as a matcher that never backtracks: the pattern is
 * split at its stars (a run of stars is one), the part before the first star must start the text and the part after
 * the last must end it, and each part between is taken at its leftmost place after the one before, which is always
 * right for globs. The time is linear in the text for a given pattern (a part without `?` is an `indexOf`), where
 * a regular expression of `.*` runs backtracks: `******z` on a 10,000-character label took a minute.
 * `contains`: the glob may match anywhere in the text (as if it began and ended with `*`).
 */
export function compileGlob(pattern: string, contains: boolean): (text: string) => boolean {
  const parts = pattern.split('*');
  if (!contains && parts.length === 1) return (v) => v.length === pattern.length && partAt(v, 0, pattern);
  const head = contains ? '' : parts[0];
  const tail = contains ? '' : parts[parts.length - 1];
  const middle = (contains ? parts : parts.slice(1, -1)).filter((x) => x !== '');
  return (v) => {
    const end = v.length - tail.length;
    if (end < head.length || !partAt(v, 0, head) || !partAt(v, end, tail)) return false;
    let at = head.length;
    for (const part of middle) {
      const found = findPart(v, part, at, end);
      if (found < 0) return false;
      at = found + part.length;
    }
    return true;
  };
}

/** True when `part` (`?` matching any unit) matches `v` at `at`. */
function partAt(v: string, at: number, part: string): boolean {
  if (at + part.length > v.length) return false;
  for (let i = 0; i < part.length; i++) {
    const c = part.charCodeAt(i);
    if (c !== 63 /* ? */ && c !== v.charCodeAt(at + i)) return false;
  }
  return true;
}

/** The leftmost place from `from` where `part` matches and ends by `limit`, or -1. */
function findPart(v: string, part: string, from: number, limit: number): number {
  if (!part.includes('?')) {
    const i = v.indexOf(part, from);
    return i >= 0 && i + part.length <= limit ? i : -1;
  }
  for (let i = from; i + part.length <= limit; i++) if (partAt(v, i, part)) return i;
  return -1;
}

function statusTest(t: FilterTerm): Test {
  const tests = t.value.split(',').map((raw) => {
    const v = raw.toLowerCase();
    const test = STATUS_TESTS[v];
    if (!test) throw new FilterError(`unknown status "${raw}" (${STATUS_VALUES.map((x) => x.value).join(', ')})`, t.valueColumn);
    return test;
  });
  return (s) => tests.some((x) => x(s));
}

const isError = (s: FilterSubject): boolean => s.status === 'error' || s.badge === 'error';
const isWarning = (s: FilterSubject): boolean => s.status === 'warning' || s.badge === 'warning';
const STATUS_TESTS: Record<string, (s: FilterSubject) => boolean> = {
  ok: (s) => !isError(s) && !isWarning(s),
  warning: isWarning,
  warnings: isWarning,
  error: isError,
  errors: isError,
  problem: (s) => isError(s) || isWarning(s),
  problems: (s) => isError(s) || isWarning(s),
};

function numberTest(field: FilterField, t: FilterTerm): Test {
  const unit = field.unit!;
  const read = (text: string, column: number): number => {
    const v = readNumber(text, unit);
    if (v === null) {
      const units = unitsOf(unit);
      throw new FilterError(`"${text}" is not a ${unit === 'integer' ? 'whole number' : 'number'}${units ? ` (units: ${units})` : ''}`, column);
    }
    return v;
  };
  let lo = -Infinity;
  let hi = Infinity;
  const range = t.op === ':' || t.op === '=' ? /^(.*?)\.\.(.*)$/.exec(t.value) : null;
  if (range) {
    if (range[1] === '' && range[2] === '') throw new FilterError('a range needs at least one end (100..200, 100.., ..200)', t.valueColumn);
    if (range[1] !== '') lo = read(range[1], t.valueColumn);
    if (range[2] !== '') hi = read(range[2], t.valueColumn + range[1].length + 2);
    if (lo > hi) throw new FilterError(`the range starts after it ends`, t.valueColumn);
  } else {
    const v = read(t.value, t.valueColumn);
    const num = field.num!;
    if (t.op === '>') return (s) => (num(s) ?? -Infinity) > v;
    if (t.op === '<') return (s) => (num(s) ?? Infinity) < v;
    if (t.op === '>=') lo = v;
    else if (t.op === '<=') hi = v;
    else lo = hi = v;
  }
  const num = field.num!;
  // A subject without the number (no duration, no tokens) never matches a comparison.
  return (s) => {
    const v = num(s);
    return v !== null && v >= lo && v <= hi;
  };
}
