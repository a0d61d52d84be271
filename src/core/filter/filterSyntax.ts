/**
 * The filter language's syntax tree and its error type. The grammar, loosest binding first:
 *
 *   expr  := and ('or' and)*
 *   and   := unary (['and'] unary)*          (juxtaposition is "and")
 *   unary := ('-' | 'not') unary | '(' expr ')' | term
 *   term  := FIELD OP VALUE | VALUE           (a bare value is `text:VALUE`)
 *   OP    := ':' | '=' | '>' | '>=' | '<' | '<='
 *   VALUE := bare word (up to a space or ')') | "quoted, with \" and \\"
 */

/** Comparison written between a field and its value. */
export type FilterOp = ':' | '=' | '>' | '>=' | '<' | '<=';

/** One `field op value` (or a bare word, as field `text`), with the 1-based column it starts at. */
export interface FilterTerm {
  type: 'term';
  field: string;
  op: FilterOp;
  value: string;
  /** The value was written in quotes (a glob `*` inside quotes is literal). */
  quoted: boolean;
  column: number;
  /** Column of the value, for errors about the value. */
  valueColumn: number;
}

/** A parsed filter expression. */
export type FilterNode =
  | FilterTerm
  | { type: 'and'; items: FilterNode[] }
  | { type: 'or'; items: FilterNode[] }
  | { type: 'not'; item: FilterNode };

/** A filter expression that cannot be read, with the 1-based column of the bad token. */
export class FilterError extends Error {
  constructor(
    readonly reason: string,
    readonly column: number,
  ) {
    super(`column ${column}: ${reason}`);
  }
}
