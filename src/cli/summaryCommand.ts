import { summarizeSession, TraceSummary } from '../core/summary';
import { parseArgs, UsageError } from './args';
import { usageLines } from './usageTable';
import { pricingOption } from './pricingOption';
import { filterModel, filterOption, FILTER_HELP } from './filterOption';
import { formatOption, loadForCli, write, writeHuman, writeJson } from './io';
import { WORKERS_HELP, workersOption } from './workers';

export const SUMMARY_HELP = `Usage: agent-trace summary FILE [--json] [--format NAME] [--filter EXPR] [--pricing FILE] [--workers N]

Prints the trace's format (and how sure the detection is), events, lines, malformed lines,
runs or sessions, time span and totals (tokens, tool calls, errors), and usage: tokens and cost
by model, tool calls by tool (the JSON's "usage").

  --json          machine-readable output
  --format NAME   read the file as NAME instead of detecting it
  --pricing FILE  a JSON object of model → {input, output, cacheRead?, cacheWrite?} in US dollars
                  per million tokens, added to (and overriding) the bundled price table
${FILTER_HELP}
                  (counts and totals are then of the matching events; --json adds "filter": {"expression", "of"})
${WORKERS_HELP}
Exit codes: 0 success, 2 unreadable file or bad usage.`;

/** `agent-trace summary`. */
export async function summaryCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ['--json', '--help'], ['--format', '--pricing', '--filter', '--workers']);
  if (args.flags.has('--help')) return write(SUMMARY_HELP + '\n').then(() => 0);
  if (args.positional.length !== 1) throw new UsageError('summary takes exactly one FILE');
  const filter = filterOption(args.options.get('--filter'));
  const model = await loadForCli(args.positional[0], { format: formatOption(args.options.get('--format')), workers: workersOption(args.options.get('--workers')) });
  const keep = filter === undefined ? undefined : (await filterModel(model, filter)).events;
  const s = await summarizeSession(model, { prices: await pricingOption(args.options.get('--pricing')), include: keep });
  if (filter !== undefined) Object.assign(s, { filter: { expression: args.options.get('--filter'), of: model.events.size } });
  if (args.flags.has('--json')) {
    await writeJson(s, 2);
    return 0;
  }
  const t = s.totals;
  const lines = [
    `file:       ${s.file}`,
    `format:     ${s.format} (confidence ${s.confidence}: ${s.detectedBy})`,
    ...(s.dialect ? [`dialect:    ${s.dialect}`] : []),
    ...(filter !== undefined ? [`filter:     ${args.options.get('--filter')} (${s.events} of ${model.events.size} events)`] : []),
    `events:     ${s.events} in ${s.lines} lines (${s.malformedLines} malformed, ${s.blankLines} blank)`,
    `runs:       ${s.groups.length}${s.groups.length ? ' (' + s.groups.slice(0, 5).join(', ') + (s.groups.length > 5 ? ', …' : '') + ')' : ''}`,
    ...(s.origin ? [`forked from: ${originText(s.origin)}`] : []),
    `time:       ${s.startTime ?? '?'} → ${s.endTime ?? '?'}${s.durationMs !== null ? ` (${(s.durationMs / 1000).toFixed(1)} s)` : ''}`,
    `tokens:     ${t.inputTokens ?? '?'} in, ${t.outputTokens ?? '?'} out`,
    `tool calls: ${t.toolCalls}`,
    `errors:     ${t.errors} (warnings ${t.warnings})`,
  ];
  for (const [k, v] of Object.entries(t)) if (!['inputTokens', 'outputTokens', 'toolCalls', 'errors', 'warnings'].includes(k)) lines.push(`${k}: ${v}`);
  lines.push(...usageLines(s.usage));
  for (const d of model.diagnostics.slice(0, 20)) lines.push(`line ${d.line}: ${d.severity} ${d.rule}: ${d.message}`);
  if (model.diagnostics.length > 20) lines.push(`… ${model.diagnostics.length - 20} more diagnostics`);
  await writeHuman(lines.join('\n') + '\n');
  return 0;
}

/** `session <id>; inherited lines 5–14 (10 events); file <path>`: what the text summary says of a fork's origin. */
function originText(o: NonNullable<TraceSummary['origin']>): string {
  const parts = [o.sessionId !== null ? `session ${o.sessionId}` : 'a session it does not name'];
  if (o.inheritedLines) parts.push(`inherited lines ${o.inheritedLines.first}–${o.inheritedLines.last} (${o.inheritedEvents} events, not counted again)`);
  if (o.upToOrdinal !== null) parts.push(`its lines before ordinal ${o.upToOrdinal}`);
  parts.push(o.file !== null ? `file ${o.file}` : 'its file is not beside this one');
  return parts.join('; ');
}
