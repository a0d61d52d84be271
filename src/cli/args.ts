/** A usage error: exit code 2 with a one-line message. */
export class UsageError extends Error {}

/** Parsed command line of one subcommand: positional arguments and flags. */
export interface ParsedArgs {
  positional: string[];
  flags: Set<string>;
  /** Each valued option's value; the last one when it was given more than once. */
  options: Map<string, string>;
  /** Every value of each valued option, in order, for the options that may repeat (`--blob-root A --blob-root B`). */
  lists: Map<string, string[]>;
}

/**
 * Parses `args` against the flags (`--json`) and valued options (`--format X`) a command accepts.
 * Unknown flags are usage errors, so a typo never silently changes the output a CI script reads.
 */
export function parseArgs(args: string[], flags: readonly string[], valued: readonly string[] = []): ParsedArgs {
  const out: ParsedArgs = { positional: [], flags: new Set(), options: new Map(), lists: new Map() };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      out.positional.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--')) {
      const [name, inline] = a.split('=', 2);
      if (valued.includes(name)) {
        const v = inline ?? args[++i];
        if (v === undefined) throw new UsageError(`${name} needs a value`);
        out.options.set(name, v);
        out.lists.set(name, [...(out.lists.get(name) ?? []), v]);
      } else if (flags.includes(name) && inline === undefined) out.flags.add(name);
      else throw new UsageError(`unknown option ${a}`);
    } else if (a === '-h') out.flags.add('--help');
    else out.positional.push(a);
  }
  return out;
}
