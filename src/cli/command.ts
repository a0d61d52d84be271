/** A subcommand of `agent-trace`: its help text and its runner, which returns the exit code. */
export interface CliCommand {
  help: string;
  /** One line for the command list. */
  summary: string;
  run(argv: string[]): Promise<number>;
}
