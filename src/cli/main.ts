import '../node/register';
import { UsageError } from './args';
import { UnreadableError, writeError } from './io';
import { summaryCommand, SUMMARY_HELP } from './summaryCommand';
import { treeCommand, TREE_HELP } from './treeCommand';
import { CLI_COMMANDS_EXTRA } from './extraCommands';
import { diffCommand, DIFF_HELP } from './diffCommand';
import { sessionsCommand, SESSIONS_HELP, usageCommand, USAGE_HELP } from './sessionsCommand';
import { searchCommand, SEARCH_HELP } from './searchCommand';
import type { CliCommand } from './command';

export type { CliCommand } from './command';

const COMMANDS: Record<string, CliCommand> = {
  summary: { help: SUMMARY_HELP, summary: 'format, events, runs, time span and totals of a trace', run: summaryCommand },
  tree: { help: TREE_HELP, summary: 'the event tree (--json: nodes with line, id, kind, parentLine, label)', run: treeCommand },
  ...CLI_COMMANDS_EXTRA,
  diff: { help: DIFF_HELP, summary: 'compare two runs: first divergence, inserted, deleted and changed events (exit 1 when they differ)', run: diffCommand },
  sessions: { help: SESSIONS_HELP, summary: 'every agent session found under the agents\' folders (or --root): title, time, tokens, cost, errors', run: sessionsCommand },
  search: { help: SEARCH_HELP, summary: 'full-text search over every session found: prompts, replies, tool input and output (filter language)', run: searchCommand },
  usage: { help: USAGE_HELP, summary: 'tokens and cost of every session found, per day, week, month, model, project or agent', run: usageCommand },
};

const MAIN_HELP = `Usage: agent-trace <command> [options]

Commands:
${Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(9)} ${c.summary}`).join('\n')}

Run 'agent-trace <command> --help' for a command's options.
Formats: murmur, harness-ledger, lumen, agentledger, deepstrike, claude-code, codex, otlp, generic.`;

/** Runs the CLI and returns the exit code (0 ok, 1 findings, 2 unreadable or bad usage). */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(MAIN_HELP + '\n');
    return name === undefined ? 2 : 0;
  }
  const cmd = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  try {
    if (!cmd) throw new UsageError(`unknown command '${name}'; try 'agent-trace --help'`);
    return await cmd.run(rest);
  } catch (err) {
    if (err instanceof UsageError || err instanceof UnreadableError) {
      writeError(err.message);
      return 2;
    }
    writeError(err instanceof Error ? err.message : String(err));
    return 2;
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
