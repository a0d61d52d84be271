/** Parser of the filter language (grammar in filterSyntax.ts): a recursive descent over the characters. */
import { FilterError, type FilterNode, type FilterOp, type FilterTerm } from './filterSyntax';

const FIELD = /^[A-Za-z_][A-Za-z0-9_.]*/;
const OPS: FilterOp[] = ['>=', '<=', ':', '=', '>', '<'];
const KEYWORDS = new Set(['and', 'or', 'not']);
const MAX_LENGTH = 10_000;
const MAX_DEPTH = 100;

/** A token boundary: whitespace or a parenthesis. */
function isBreak(c: string | undefined): boolean {
  return c === undefined || c === '(' || c === ')' || /\s/.test(c);
}

class Parser {
  private pos = 0;
  private depth = 0;
  constructor(private readonly src: string) {}

  parse(): FilterNode | null {
    this.skip();
    if (this.pos >= this.src.length) return null;
    const node = this.or();
    this.skip();
    if (this.pos < this.src.length) throw this.error(this.src[this.pos] === ')' ? 'unmatched ")"' : 'unexpected text');
    return node;
  }

  private or(): FilterNode {
    const items = [this.and()];
    while (this.keyword('or')) {
      if (this.atEnd()) throw this.error('"or" needs a term after it');
      items.push(this.and());
    }
    return items.length === 1 ? items[0] : { type: 'or', items };
  }

  private and(): FilterNode {
    const items = [this.unary()];
    for (;;) {
      this.skip();
      if (this.atEnd() || this.src[this.pos] === ')' || this.peekKeyword('or')) break;
      if (this.keyword('and') && this.atEnd()) throw this.error('"and" needs a term after it');
      items.push(this.unary());
    }
    return items.length === 1 ? items[0] : { type: 'and', items };
  }

  private unary(): FilterNode {
    this.skip();
    if (++this.depth > MAX_DEPTH) throw this.error(`nested deeper than ${MAX_DEPTH}`);
    try {
      const c = this.src[this.pos];
      if (c === '-' && !isBreak(this.src[this.pos + 1])) {
        this.pos++;
        return { type: 'not', item: this.unary() };
      }
      if (this.keyword('not')) {
        if (this.atEnd()) throw this.error('"not" needs a term after it');
        return { type: 'not', item: this.unary() };
      }
      if (c === '(') return this.group();
      if (c === ')') throw this.error('unmatched ")"');
      if (this.peekKeyword('or') || this.peekKeyword('and')) throw this.error(`"${this.word()}" needs a term before it`);
      return this.term();
    } finally {
      this.depth--;
    }
  }

  private group(): FilterNode {
    const open = this.pos++;
    this.skip();
    if (this.src[this.pos] === ')') throw this.error('empty parentheses');
    const inner = this.or();
    this.skip();
    if (this.src[this.pos] !== ')') throw new FilterError('"(" is never closed', open + 1);
    this.pos++;
    return inner;
  }

  private term(): FilterTerm {
    const start = this.pos;
    const field = FIELD.exec(this.src.slice(this.pos, this.pos + 64))?.[0];
    if (field) {
      const after = this.pos + field.length;
      const op = OPS.find((o) => this.src.startsWith(o, after));
      if (op) {
        this.pos = after + op.length;
        const valueColumn = this.pos + 1;
        if (isBreak(this.src[this.pos])) throw this.error(`"${field}${op}" needs a value`);
        const { value, quoted } = this.value();
        return { type: 'term', field: field.toLowerCase(), op, value, quoted, column: start + 1, valueColumn };
      }
    }
    const { value, quoted } = this.value();
    return { type: 'term', field: 'text', op: ':', value, quoted, column: start + 1, valueColumn: start + 1 };
  }

  private value(): { value: string; quoted: boolean } {
    if (this.src[this.pos] !== '"') {
      const start = this.pos;
      while (!isBreak(this.src[this.pos])) {
        if (this.src[this.pos] === '"') throw this.error('a quote inside a word: quote the whole value');
        this.pos++;
      }
      if (this.pos === start) throw this.error('expected a term');
      return { value: this.src.slice(start, this.pos), quoted: false };
    }
    const open = this.pos++;
    let out = '';
    while (this.pos < this.src.length && this.src[this.pos] !== '"') {
      if (this.src[this.pos] === '\\' && this.pos + 1 < this.src.length) this.pos++;
      out += this.src[this.pos++];
    }
    if (this.pos >= this.src.length) throw new FilterError('unterminated quote', open + 1);
    this.pos++;
    if (!isBreak(this.src[this.pos])) throw this.error('expected a space after the closing quote');
    return { value: out, quoted: true };
  }

  private skip(): void {
    while (this.pos < this.src.length && /\s/.test(this.src[this.pos])) this.pos++;
  }
  private atEnd(): boolean {
    this.skip();
    return this.pos >= this.src.length;
  }
  private word(): string {
    let end = this.pos;
    while (!isBreak(this.src[end])) end++;
    return this.src.slice(this.pos, end);
  }
  private peekKeyword(k: string): boolean {
    this.skip();
    return KEYWORDS.has(k) && this.word().toLowerCase() === k;
  }
  private keyword(k: string): boolean {
    if (!this.peekKeyword(k)) return false;
    this.pos += k.length;
    return true;
  }
  private error(reason: string): FilterError {
    return new FilterError(reason, this.pos + 1);
  }
}

/**
 * Parses a filter expression (`kind:tool_call status:error -tool:shell duration>500ms`). Returns null for an
 * empty or blank expression; throws {@link FilterError} with the 1-based column of the bad token.
 * Field names are not checked here (see compileFilter), so the same parse serves completions.
 */
export function parseFilter(source: string): FilterNode | null {
  if (source.length > MAX_LENGTH) throw new FilterError(`longer than ${MAX_LENGTH} characters`, MAX_LENGTH + 1);
  return new Parser(source).parse();
}
