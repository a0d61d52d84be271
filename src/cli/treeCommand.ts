import { parseArgs, UsageError } from './args';
import { filterModel, filterOption, FILTER_HELP } from './filterOption';
import { filteredTreeJson, treeJson, treeKeep } from './treeJson';
import { formatOption, loadForCli, write, writeHuman, writeJson } from './io';
import { WORKERS_HELP, workersOption } from './workers';

export const TREE_HELP = `Usage: agent-trace tree FILE [--json] [--format NAME] [--filter EXPR] [--workers N]

Prints the event tree. With --json:
  {"format": NAME, "nodes": [{"line": n, "id": string|null, "kind": string, "parentLine": n|null, "label": string,
   "index": n, "parentIndex": n|null, "parentId": string|null}], "diagnostics": [{"rule", "severity", "line", "message"}]}
one node per event, in file order; lines are 1-based; parentLine is the line of the parent event in the tree
shown (Claude Code: session > turn > model step > tool call > result); index is the node's position in "nodes" and
parentIndex its parent's (exact even when several events share a line, as the spans of one OTLP export do);
parentId is the parent id the event names in the file (e.g. traceId/parentSpanId, Claude Code's parentUuid), as
written even where the tree nests the event elsewhere, null when it names none or it is a structural parent.
${FILTER_HELP}
                  (the tree keeps the matching events and their ancestors; with --json each node gets
                  "matched": true|false, index and parentIndex count the kept nodes, and "filter":
                  {"expression", "matched", "of"} is added)
${WORKERS_HELP}
Exit codes: 0 success, 2 unreadable file or bad usage.`;

function countMatched(n: number, pass: (i: number) => boolean): number {
  let c = 0;
  for (let i = 0; i < n; i++) if (pass(i)) c++;
  return c;
}

/** `agent-trace tree`. */
export async function treeCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ['--json', '--help'], ['--format', '--filter', '--workers']);
  if (args.flags.has('--help')) return write(TREE_HELP + '\n').then(() => 0);
  if (args.positional.length !== 1) throw new UsageError('tree takes exactly one FILE');
  const filter = filterOption(args.options.get('--filter'));
  const model = await loadForCli(args.positional[0], { format: formatOption(args.options.get('--format')), workers: workersOption(args.options.get('--workers')) });
  const matched = filter === undefined ? undefined : await filterModel(model, filter);
  const keep = matched && treeKeep(model, matched.events);
  if (args.flags.has('--json')) {
    const doc = matched && keep ? filteredTreeJson(model, keep, matched.events, args.options.get('--filter')!) : treeJson(model);
    await writeJson(doc, 2, false);
    return 0;
  }
  const out: string[] = [`${model.path} (${model.format}, ${model.events.size} events)`];
  const stack: number[] = [];
  const roots = model.tree.roots;
  for (let r = roots.length - 1; r >= 0; r--) stack.push(roots[r]);
  while (stack.length > 0) {
    const i = stack.pop()!;
    if (keep && keep[i] === 0) continue;
    out.push(`${'  '.repeat(model.tree.depth(i))}${model.events.labelOf(i)}  [line ${model.events.lineOf(i)}]`);
    const kids = model.tree.children(i);
    for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k]);
    if (out.length >= 5000) {
      await writeHuman(out.join('\n') + '\n');
      out.length = 0;
    }
  }
  model.malformed.forEach((m, k) => (!matched || matched.malformed(k)) && out.push(`! line ${m.line}: ${m.message}`));
  if (matched) out.push(`filter ${args.options.get('--filter')}: ${countMatched(model.events.size, matched.events)} of ${model.events.size} events match`);
  await writeHuman(out.join('\n') + '\n');
  return 0;
}
