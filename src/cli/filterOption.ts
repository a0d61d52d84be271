/** `--filter EXPR` of `tree` and `summary`: the filter language of the viewer's filter box. */
import type { TraceModel } from '../core/loadTrace';
import { compileFilter, type CompiledFilter } from '../core/filter/filterCompile';
import { applyFilter, type ModelFilter } from '../core/filter/filterModel';
import { FilterError } from '../core/filter/filterSyntax';
import { UsageError } from './args';

export const FILTER_HELP = `  --filter EXPR   only events that match EXPR, e.g. 'kind:tool_call status:error -tool:shell duration>500ms
                  tokens>1k model:claude* text:"timeout" line:100..200' (space or "and", "or", "-"/"not", parentheses)`;

/**
 * Compiles `--filter` before the trace is read, so a bad expression fails fast (exit 2) with the column of
 * the bad token; undefined when the option is absent.
 */
export function filterOption(expr: string | undefined): CompiledFilter | null | undefined {
  if (expr === undefined) return undefined;
  try {
    return compileFilter(expr);
  } catch (err) {
    if (err instanceof FilterError) throw new UsageError(`--filter ${JSON.stringify(expr)}: ${err.message}`);
    throw err;
  }
}

/** Applies a compiled filter (null = the empty expression, which keeps everything). */
export async function filterModel(model: TraceModel, filter: CompiledFilter | null): Promise<ModelFilter> {
  if (filter === null) return { events: () => true, malformed: () => true };
  const lineBadge = new Map<number, 'error' | 'warning'>();
  for (const d of model.diagnostics) {
    if (d.severity === 'error') lineBadge.set(d.line, 'error');
    else if (d.severity === 'warning' && !lineBadge.has(d.line)) lineBadge.set(d.line, 'warning');
  }
  return applyFilter(model, filter, { badgeOfLine: (l) => lineBadge.get(l) });
}
