import { Command } from 'commander';
import { customersCommand } from './commands/customers';
import { eventsCommand } from './commands/events';
import { flowMatrixCommand } from './commands/flow-matrix';
import { listenCommand } from './commands/listen';
import { importsCommand } from './commands/imports';
import { operatorCommands } from './commands/operators';
import { opsCommand } from './commands/ops';
import { paymentsCommand } from './commands/payments';
import { refundsCommand } from './commands/refunds';
import { tokensCommand } from './commands/tokens';
import { triggerCommand } from './commands/trigger';
import { webhooksCommand } from './commands/webhooks';

export const CLI_VERSION = '0.1.0';

/** The whole command tree; commands read their clients and output from the global options. */
export function buildProgram(): Command {
  const program = new Command('vaultline')
    .description('The Vaultline merchant and operator APIs from the command line')
    .version(CLI_VERSION)
    .option('--api-key <key>', 'merchant API key (default: VAULTLINE_API_KEY)')
    .option('--admin-key <key>', 'operator key for merchants, keys, operators, audit, destinations, key-rotation, ops (default: VAULTLINE_ADMIN_KEY)')
    .option('--base-url <url>', 'where the API is (default: VAULTLINE_BASE_URL, else http://localhost:8080)')
    .option('--json', 'print JSON for scripts instead of tables')
    .showHelpAfterError()
    .exitOverride();
  for (const add of [
    paymentsCommand,
    refundsCommand,
    customersCommand,
    tokensCommand,
    eventsCommand,
    listenCommand,
    triggerCommand,
    webhooksCommand,
    flowMatrixCommand,
    importsCommand,
    operatorCommands,
    opsCommand,
  ])
    add(program);
  // Subcommands inherit the exit override (errors thrown, not process.exit), so main maps them to exit codes.
  const inherit = (command: Command) => {
    command.exitOverride().showHelpAfterError();
    command.commands.forEach(inherit);
  };
  program.commands.forEach(inherit);
  return program;
}
