import type { Command } from 'commander';
import type { MerchantComponents } from '@vaultline/node';
import { collect } from '../collect';
import { contextOf, wholeNumber } from '../context';
import { printList, printOne, type Column } from '../output';

type Token = MerchantComponents['schemas']['Token'];

const TOKEN_COLUMNS: Array<Column<Token>> = [
  { header: 'id', value: (t) => t.id },
  { header: 'card', value: (t) => t.masked_account_number },
  { header: 'scheme', value: (t) => t.scheme },
  { header: 'expiry', value: (t) => `${String(t.expiry_month).padStart(2, '0')}/${t.expiry_year}` },
  { header: 'business key', value: (t) => t.business_key },
  { header: 'created', value: (t) => t.created_at },
];

export function tokensCommand(program: Command): void {
  const tokens = program.command('tokens').description('Card tokens (masked: the CLI never shows card data): list, show, delete');

  tokens
    .command('list')
    .description('Lists tokens, newest first')
    .option('--business-key <key>', 'only the tokens of this business key')
    .option('--limit <n>', 'at most this many tokens', wholeNumber, 20)
    .action(async (options: { businessKey?: string; limit: number }, command: Command) => {
      const context = contextOf(command);
      const query = { limit: Math.min(100, options.limit), ...(options.businessKey ? { business_key: options.businessKey } : {}) };
      printList(context.output, await collect(context.merchant().list('/tokens', { params: { query } }), options.limit), TOKEN_COLUMNS);
    });

  tokens
    .command('get <token-id>')
    .description('Shows a token')
    .action(async (tokenId: string, _options: object, command: Command) => {
      const context = contextOf(command);
      printOne(context.output, await context.merchant().get('/tokens/{token_id}', { params: { path: { token_id: tokenId } } }));
    });

  tokens
    .command('delete <token-id>')
    .description('Deletes a token: its card data is erased for good')
    .action(async (tokenId: string, _options: object, command: Command) => {
      const context = contextOf(command);
      printOne(context.output, (await context.merchant().delete('/tokens/{token_id}', { params: { path: { token_id: tokenId } } })) ?? { id: tokenId, deleted: true });
    });
}
