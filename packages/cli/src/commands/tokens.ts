import type { Command } from 'commander';
import { UsageError } from '../exit-codes';
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
  const tokens = program.command('tokens').description('Card tokens (masked: the CLI never shows card data): list, show, create, delete');

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
    .command('create')
    .description('Tokenizes a card: from a JSON card on stdin ({"number", "exp_month", "exp_year", "cvc", "name"}), or --test-card with a test key')
    .option('--test-card <number>', 'test keys only: a simulator test card (4242424242424242…), expiring 12/ in five years, security code 123')
    .option('--business-key <key>', 'your key for the card (an import with the same key replaces its data)')
    .addHelpText('after', '\nA card number is never a command-line argument with a live key (it would stay in shell history and the process list).')
    .action(async (options: { testCard?: string; businessKey?: string }, command: Command) => {
      const context = contextOf(command);
      const vaultline = context.merchant();
      let card: Record<string, unknown>;
      if (options.testCard !== undefined) {
        if (vaultline.mode !== 'test') throw new UsageError('--test-card takes a test key (sk_test_…); with a live key, give the card as JSON on stdin.');
        card = { number: options.testCard, exp_month: 12, exp_year: new Date().getUTCFullYear() + 5, cvc: '123' };
      } else {
        if (process.stdin.isTTY)
          throw new UsageError('Give the card as JSON on stdin (echo \'{"number":…}\' | vaultline tokens create), or --test-card with a test key.');
        card = parseCard(await readStdin());
      }
      const body = { card: card as never, ...(options.businessKey ? { business_key: options.businessKey } : {}) };
      printOne(context.output, await vaultline.post('/tokens', { body }));
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
      printOne(
        context.output,
        (await context.merchant().delete('/tokens/{token_id}', { params: { path: { token_id: tokenId } } })) ?? { id: tokenId, deleted: true },
      );
    });
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The card object from stdin; the text itself is never repeated in an error (it may be card data). */
function parseCard(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError('stdin is not JSON: give the card as {"number", "exp_month", "exp_year", "cvc", "name"}.');
  }
  const card = typeof value === 'object' && value !== null && 'card' in value ? (value as { card: unknown }).card : value;
  if (typeof card !== 'object' || card === null || Array.isArray(card))
    throw new UsageError('stdin must hold a card object {"number", "exp_month", "exp_year", "cvc", "name"}.');
  return card as Record<string, unknown>;
}
