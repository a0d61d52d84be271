import type { CliCommand } from '../cli';
import { CHECK_HELP, makeCheckCommand, VERIFY_HELP } from './checkCommand';
import { version } from '../../package.json';

/** The verify and check commands, kept apart from the dispatcher. */
export const CLI_COMMANDS_EXTRA: Record<string, CliCommand> = {
  verify: { help: VERIFY_HELP, run: makeCheckCommand('verify', VERIFY_HELP, version) },
  check: { help: CHECK_HELP, run: makeCheckCommand('check', CHECK_HELP, version) },
};
