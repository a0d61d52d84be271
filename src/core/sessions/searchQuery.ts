/**
 * A search query, written in the viewer's filter language (its parser, core/filter), made into what the index store
 * answers (core/sessions/searchStore.ts): bare words and `text:` are text (each word matches words it starts; a
 * quoted phrase its words in order), `agent:`, `tool:`, `status:`, `field:` and `since:` narrow; `and`, `or`, `not`
 * and parentheses as in the viewer. Names with wildcards are matched here against the names the index holds.
 */
import { parseFilter } from '../filter/filterParser';
import { FilterError, type FilterNode, type FilterTerm } from '../filter/filterSyntax';
import { compileGlob } from '../filter/filterCompile';
import { SEARCH_FIELDS, type SearchField, type StoreQuery } from './searchStore';
import { parseSince } from './usageOverTime';

/** The names a query's wildcards are matched against. */
export interface QueryNames {
  agents: readonly string[];
  tools: readonly string[];
}

/** A query read: what to ask the store, and the words a snippet is centred on. */
export interface CompiledQuery {
  store: StoreQuery;
  /** Quoted phrases (when any) else the words, lower-cased, of the text terms not negated. */
  needles: string[];
}

/** Reads a query; throws {@link FilterError} (with a column) when it cannot be read. */
export function compileQuery(query: string, names: QueryNames, now: number): CompiledQuery {
  const ast = parseFilter(query);
  if (!ast) throw new FilterError('an empty query: give words to look for, or fields (agent:, tool:, status:, field:, since:)', 1);
  const texts: { value: string; quoted: boolean }[] = [];
  const store = compileNode(ast, names, now, texts, false);
  const phrases = texts.filter((t) => t.quoted).map((t) => t.value.toLowerCase());
  const words = texts.flatMap((t) => t.value.toLowerCase().split(/\s+/)).filter((w) => w !== '');
  return { store, needles: phrases.length > 0 ? phrases : words };
}

function compileNode(n: FilterNode, names: QueryNames, now: number, texts: { value: string; quoted: boolean }[], negated: boolean): StoreQuery {
  switch (n.type) {
    case 'and':
      return { and: n.items.map((x) => compileNode(x, names, now, texts, negated)) };
    case 'or':
      return { or: n.items.map((x) => compileNode(x, names, now, texts, negated)) };
    case 'not':
      return { not: compileNode(n.item, names, now, texts, !negated) };
    case 'term':
      return compileTerm(n, names, now, texts, negated);
  }
}

function compileTerm(t: FilterTerm, names: QueryNames, now: number, texts: { value: string; quoted: boolean }[], negated: boolean): StoreQuery {
  if (t.field !== 'since' && t.op !== ':' && t.op !== '=') throw new FilterError(`"${t.field}" takes ":" (not "${t.op}")`, t.column);
  switch (t.field) {
    case 'text':
      if (!negated) texts.push({ value: t.value, quoted: t.quoted });
      return { text: t.value, quoted: t.quoted };
    case 'agent':
      return { agents: names.agents.filter(alternatives(t)) };
    case 'tool':
      return { tools: names.tools.filter(alternatives(t)) };
    case 'field': {
      const wanted = [...new Set(t.value.split(',').map((v) => v.toLowerCase()))];
      for (const v of wanted) if (!(SEARCH_FIELDS as readonly string[]).includes(v)) throw new FilterError(`unknown field "${v}" (${SEARCH_FIELDS.join(', ')})`, t.valueColumn);
      return { fields: wanted as SearchField[] };
    }
    case 'status': {
      const v = t.value.toLowerCase();
      if (v === 'error' || v === 'errors') return { failed: true };
      if (v === 'ok') return { failed: false };
      throw new FilterError(`unknown status "${t.value}" (search knows error and ok)`, t.valueColumn);
    }
    case 'since': {
      const since = parseSince(t.value, now);
      if (since === null) throw new FilterError(`"${t.value}" is not a date (2026-12-01), an ISO time or an age (12h, 7d, 2w)`, t.valueColumn);
      return { since };
    }
    default:
      throw new FilterError(`unknown field "${t.field}" (search knows text, agent, tool, status, field, since; quote text that holds a colon)`, t.column);
  }
}

/** `name:a,b*`: any alternative, exact unless it has `*` or `?`; case-insensitive (as the filter's names). */
function alternatives(t: FilterTerm): (v: string) => boolean {
  const alts = (t.quoted ? [t.value] : t.value.split(',')).filter((v) => v !== '').map((a) => a.toLowerCase());
  if (alts.length === 0) throw new FilterError(`"${t.field}" needs a value`, t.valueColumn);
  const tests = alts.map((a) => (!t.quoted && /[*?]/.test(a) ? compileGlob(a, false) : (v: string) => v === a));
  return (v) => {
    const low = v.toLowerCase();
    return tests.some((x) => x(low));
  };
}
