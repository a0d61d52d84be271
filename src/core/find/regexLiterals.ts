/**
 * The literal text every match of a regular expression must contain, so find can byte-search a blob for it
 * and decode and run the expression only on blobs that hold it (decoding costs far more than reading).
 * Conservative by construction: a part that may match nothing or many things (an optional or zero-minimum
 * quantifier, a class, a dot, a backreference, a lookaround, a group with its own flags) gives no literal;
 * an alternation gives the set of its branches' literals, or nothing when one branch has none. The pattern
 * is read by regjsparser (the parser Babel uses), not by a scanner of our own.
 */
import { parse, type AstNode, type RootNode } from 'regjsparser';

/** What is known of a part of the pattern. */
interface Known {
  /** The exact text the part matches (as written; with `i`, in any case), or null when it varies. */
  exact: string | null;
  /** Every match of the part contains one of these (non-empty) texts; null when nothing is known. */
  need: string[] | null;
}

const NOTHING: Known = { exact: null, need: null };

/** An alternation of more branches than this is not worth a byte search per branch. */
const MAX_ALTERNATIVES = 8;

/** Longer exact texts (a repeated group) are not built. */
const MAX_EXACT = 256;

/**
 * Texts, one of which is in every match of `pattern` under `flags`, or null when none can be named (or the
 * pattern is one regjsparser does not read: the caller has already compiled it, so that is no error).
 * With `i` only ASCII text is named (byte search folds ASCII letters only); with `i` and `u`/`v` not `k` or
 * `s` either, which fold to U+212A KELVIN SIGN and U+017F LONG S.
 */
export function requiredLiterals(pattern: string, flags: string): string[] | null {
  let ast: RootNode<{ lookbehind: true; namedGroups: true; unicodePropertyEscape: true; unicodeSet: true; modifiers: true }>;
  try {
    ast = parse(pattern, flags, { lookbehind: true, namedGroups: true, unicodePropertyEscape: true, unicodeSet: true, modifiers: true });
  } catch {
    return null;
  }
  const usable = usableChar(flags);
  const need = known(ast, usable).need;
  return need && need.length > 0 ? need : null;
}

type Usable = (ch: string) => boolean;

function usableChar(flags: string): Usable {
  const ignoreCase = flags.includes('i');
  const unicode = flags.includes('u') || flags.includes('v');
  // Decoded text has no lone surrogates, and U+FFFD stands for bytes that are not UTF-8: neither is in the bytes.
  return (ch) => {
    const c = ch.codePointAt(0)!;
    if (c === 0xfffd || (c >= 0xd800 && c <= 0xdfff)) return false;
    if (!ignoreCase) return true;
    return c < 0x80 && !(unicode && /[ks]/i.test(ch));
  };
}

function known(node: AstNode<{ namedGroups: true; unicodePropertyEscape: true; unicodeSet: true; modifiers: true }>, usable: Usable): Known {
  switch (node.type) {
    case 'value': {
      const ch = String.fromCodePoint(node.codePoint);
      return { exact: ch, need: usable(ch) ? [ch] : null };
    }
    case 'alternative':
      return sequence(node.body, usable);
    case 'group':
      if (node.behavior !== 'normal' && node.behavior !== 'ignore') return NOTHING;
      if (node.behavior === 'ignore' && node.modifierFlags) return NOTHING;
      return sequence(node.body, usable);
    case 'disjunction':
      return alternation(node.body.map((b) => known(b, usable)));
    case 'quantifier': {
      if (node.min === 0) return NOTHING;
      const body = known(node.body[0], usable);
      const fixed = node.max === node.min && body.exact !== null && body.exact.length * node.min <= MAX_EXACT;
      // One copy of the body is in every match, whatever the count.
      return { exact: fixed ? body.exact!.repeat(node.min) : null, need: body.need };
    }
    default:
      // anchor, dot, characterClass, characterClassEscape, unicodePropertyEscape, reference
      return NOTHING;
  }
}

/** Parts one after another: runs of exact parts join into longer texts; the best requirement wins. */
function sequence(parts: readonly AstNode<{ namedGroups: true; unicodePropertyEscape: true; unicodeSet: true; modifiers: true }>[], usable: Usable): Known {
  const candidates: string[][] = [];
  let run = '';
  let exact = true;
  const flush = () => {
    for (const s of segments(run, usable)) candidates.push([s]);
    run = '';
  };
  for (const p of parts) {
    const k = known(p, usable);
    if (k.exact !== null && run.length + k.exact.length <= MAX_EXACT) {
      run += k.exact;
      continue;
    }
    exact = false;
    flush();
    if (k.need) candidates.push(k.need);
  }
  const whole = exact ? run : null;
  flush();
  return { exact: whole, need: best(candidates) };
}

function alternation(branches: Known[]): Known {
  const sets: string[] = [];
  for (const b of branches) {
    // A branch that names no text (an empty one, a class) lets a match do without all the others' texts.
    if (!b.need) return NOTHING;
    sets.push(...b.need);
  }
  const unique = [...new Set(sets)];
  return { exact: null, need: unique.length <= MAX_ALTERNATIVES ? unique : null };
}

/** The longest pieces of `text` made of usable characters (whole code points). */
function segments(text: string, usable: Usable): string[] {
  const out: string[] = [];
  let cur = '';
  for (const ch of text) {
    if (usable(ch)) cur += ch;
    else if (cur) out.push(cur), (cur = '');
  }
  if (cur) out.push(cur);
  return out;
}

/** The most selective requirement: the one whose shortest text is longest, then the one with fewer texts. */
function best(candidates: string[][]): string[] | null {
  let pick: string[] | null = null;
  let score = -1;
  for (const c of candidates) {
    const s = Math.min(...c.map((t) => t.length)) * 16 - c.length;
    if (c.length > 0 && s > score) (pick = c), (score = s);
  }
  return pick;
}
