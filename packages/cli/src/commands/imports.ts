import type { Command } from 'commander';
import type { MerchantComponents } from '@vaultline/node';
import { collect } from '../collect';
import { contextOf } from '../context';
import { UsageError } from '../exit-codes';
import { printList, printOne, type Column } from '../output';

type TokenImport = MerchantComponents['schemas']['TokenImport'];

const IMPORT_COLUMNS: Array<Column<TokenImport>> = [
  { header: 'id', value: (i) => i.id },
  { header: 'provider', value: (i) => i.provider },
  { header: 'state', value: (i) => i.state },
  { header: 'counts', value: (i) => i.counts },
  { header: 'created', value: (i) => i.created_at },
  { header: 'finished', value: (i) => i.finished_at },
];

export function importsCommand(program: Command): void {
  const imports = program.command('imports').description('Import jobs of tokens from a payment platform: list, show, start');

  imports
    .command('list')
    .description('Lists the import jobs, newest first')
    .action(async (_options: object, command: Command) => {
      const context = contextOf(command);
      printList(context.output, await collect(context.merchant().list('/tokens/imports', { params: { query: { limit: 100 } } })), IMPORT_COLUMNS);
    });

  imports
    .command('get <import-id>')
    .description('Shows an import job: its state and counts')
    .action(async (importId: string, _options: object, command: Command) => {
      const context = contextOf(command);
      printOne(context.output, await context.merchant().get('/tokens/imports/{import_id}', { params: { path: { import_id: importId } } }));
    });

  imports
    .command('start')
    .description('Starts an import job from provider_a; the platform key is read from VAULTLINE_IMPORT_PROVIDER_KEY (never a command-line argument)')
    .action(async (_options: object, command: Command) => {
      const context = contextOf(command);
      const apiKey = process.env.VAULTLINE_IMPORT_PROVIDER_KEY;
      if (!apiKey) throw new UsageError("Set VAULTLINE_IMPORT_PROVIDER_KEY to the platform's secret key.");
      printOne(context.output, await context.merchant().post('/tokens/imports', { body: { provider: 'provider_a', provider_a: { api_key: apiKey } } }));
    });
}
