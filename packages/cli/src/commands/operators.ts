import type { Command } from 'commander';
import type { AdminComponents } from '@vaultline/node';
import { collect } from '../collect';
import { contextOf, wholeNumber } from '../context';
import { UsageError } from '../exit-codes';
import { printList, printOne, type Column } from '../output';

type Schemas = AdminComponents['schemas'];

const MERCHANT_COLUMNS: Array<Column<Schemas['Merchant']>> = [
  { header: 'id', value: (m) => m.id },
  { header: 'name', value: (m) => m.name },
  { header: 'card data access', value: (m) => m.card_data_access },
  { header: 'created', value: (m) => m.created_at },
];
const KEY_COLUMNS: Array<Column<Schemas['ApiKey']>> = [
  { header: 'id', value: (k) => k.id },
  { header: 'prefix', value: (k) => k.prefix },
  { header: 'mode', value: (k) => k.mode },
  { header: 'scopes', value: (k) => k.scopes.join(',') },
  { header: 'label', value: (k) => k.label },
  { header: 'created', value: (k) => k.created_at },
  { header: 'revoked', value: (k) => k.revoked_at },
];
const OPERATOR_COLUMNS: Array<Column<Schemas['Operator']>> = [
  { header: 'id', value: (o) => o.id },
  { header: 'name', value: (o) => o.name },
  { header: 'prefix', value: (o) => o.prefix },
  { header: 'created', value: (o) => o.created_at },
  { header: 'revoked', value: (o) => o.revoked_at },
];
const AUDIT_COLUMNS: Array<Column<Schemas['AdminAuditEntry']>> = [
  { header: 'at', value: (a) => a.at },
  { header: 'operator', value: (a) => a.operator_name },
  { header: 'request', value: (a) => `${a.method} ${a.path}` },
  { header: 'status', value: (a) => a.status },
  { header: 'request id', value: (a) => a.request_id },
];
const DESTINATION_COLUMNS: Array<Column<Schemas['ForwardDestination']>> = [
  { header: 'id', value: (d) => d.id },
  { header: 'merchant', value: (d) => d.merchant_id },
  { header: 'url', value: (d) => d.url },
  { header: 'mode', value: (d) => d.mode },
  { header: 'created', value: (d) => d.created_at },
];

/** The operator API (X-Admin-Key: --admin-key or VAULTLINE_ADMIN_KEY). */
export function operatorCommands(program: Command): void {
  const merchants = program.command('merchants').description('Operators: merchants (list, show, create, update)');
  merchants
    .command('list')
    .description('Lists the merchants')
    .action(async (_options: object, command: Command) => {
      const context = contextOf(command);
      printList(context.output, await collect(context.admin().list('/admin/merchants', { params: { query: { limit: 100 } } })), MERCHANT_COLUMNS);
    });
  merchants
    .command('get <merchant-id>')
    .description('Shows a merchant')
    .action(async (merchantId: string, _options: object, command: Command) => {
      const context = contextOf(command);
      printOne(context.output, await context.admin().get('/admin/merchants/{merchant_id}', { params: { path: { merchant_id: merchantId } } }));
    });
  merchants
    .command('create <name>')
    .description('Creates a merchant and its first API key (shown this one time)')
    .option('--card-data-access', 'may read card data back (forwarding, detokenization)')
    .action(async (name: string, options: { cardDataAccess?: boolean }, command: Command) => {
      const context = contextOf(command);
      printOne(context.output, await context.admin().post('/admin/merchants', { body: { name, card_data_access: options.cardDataAccess ?? false } }));
    });
  merchants
    .command('update <merchant-id>')
    .description("Sets a merchant's rate limit per API key, or returns it to the default")
    .option('--rate-limit <per-second:burst>', 'requests per second and burst, e.g. 50:100')
    .option('--default-rate-limit', 'use the service default (RATE_LIMIT_PER_SECOND, RATE_LIMIT_BURST)')
    .action(async (merchantId: string, options: { rateLimit?: string; defaultRateLimit?: boolean }, command: Command) => {
      const context = contextOf(command);
      if ((options.rateLimit === undefined) === !options.defaultRateLimit)
        throw new UsageError('Pass one of --rate-limit <per-second:burst> or --default-rate-limit.');
      let rateLimit: Schemas['RateLimit'] | null = null;
      if (options.rateLimit !== undefined) {
        const match = /^(\d+(?:\.\d+)?):(\d+)$/.exec(options.rateLimit);
        if (!match) throw new UsageError('--rate-limit takes <per-second>:<burst>, e.g. 50:100.');
        rateLimit = { per_second: Number(match[1]), burst: Number(match[2]) };
      }
      printOne(
        context.output,
        await context.admin().patch('/admin/merchants/{merchant_id}', { params: { path: { merchant_id: merchantId } }, body: { rate_limit: rateLimit } }),
      );
    });

  const keys = program.command('keys').description('Operators: the API keys of a merchant (list, create, revoke)');
  keys
    .command('list <merchant-id>')
    .description("Lists a merchant's API keys (prefixes only)")
    .action(async (merchantId: string, _options: object, command: Command) => {
      const context = contextOf(command);
      printList(
        context.output,
        await collect(
          context.admin().list('/admin/merchants/{merchant_id}/api-keys', { params: { path: { merchant_id: merchantId }, query: { limit: 100 } } }),
        ),
        KEY_COLUMNS,
      );
    });
  keys
    .command('create <merchant-id>')
    .description('Issues an API key (shown this one time)')
    .option('--mode <mode>', 'test or live', 'test')
    .option('--label <label>', 'a note for people')
    .action(async (merchantId: string, options: { mode: string; label?: string }, command: Command) => {
      const context = contextOf(command);
      if (options.mode !== 'test' && options.mode !== 'live') throw new UsageError('--mode takes test or live.');
      const body = { mode: options.mode as 'test' | 'live', ...(options.label ? { label: options.label } : {}) };
      printOne(context.output, await context.admin().post('/admin/merchants/{merchant_id}/api-keys', { params: { path: { merchant_id: merchantId } }, body }));
    });
  keys
    .command('revoke <merchant-id> <key-id>')
    .description('Revokes an API key at once')
    .action(async (merchantId: string, keyId: string, _options: object, command: Command) => {
      const context = contextOf(command);
      printOne(
        context.output,
        await context.admin().delete('/admin/merchants/{merchant_id}/api-keys/{key_id}', { params: { path: { merchant_id: merchantId, key_id: keyId } } }),
      );
    });

  const operators = program.command('operators').description('Operators: the operators and their admin keys (list, create, revoke)');
  operators
    .command('list')
    .description('Lists the operators')
    .action(async (_options: object, command: Command) => {
      const context = contextOf(command);
      printList(context.output, await collect(context.admin().list('/admin/operators', { params: { query: { limit: 100 } } })), OPERATOR_COLUMNS);
    });
  operators
    .command('create <name>')
    .description('Creates an operator and its admin key (shown this one time)')
    .action(async (name: string, _options: object, command: Command) => {
      const context = contextOf(command);
      printOne(context.output, await context.admin().post('/admin/operators', { body: { name } }));
    });
  operators
    .command('revoke <operator-id>')
    .description("Revokes an operator's admin key")
    .action(async (operatorId: string, _options: object, command: Command) => {
      const context = contextOf(command);
      printOne(context.output, await context.admin().delete('/admin/operators/{operator_id}', { params: { path: { operator_id: operatorId } } }));
    });

  program
    .command('audit')
    .description('Operators: the admin audit, newest first')
    .option('--operator <operator-id>', "only this operator's requests")
    .option('--limit <n>', 'at most this many entries', wholeNumber, 20)
    .action(async (options: { operator?: string; limit: number }, command: Command) => {
      const context = contextOf(command);
      const query = { limit: Math.min(100, options.limit), ...(options.operator ? { operator_id: options.operator } : {}) };
      printList(context.output, await collect(context.admin().list('/admin/audit', { params: { query } }), options.limit), AUDIT_COLUMNS);
    });

  const destinations = program.command('destinations').description('Operators: forward destinations added for merchants (list, add, remove)');
  destinations
    .command('list')
    .description('Lists the forward destinations added for a merchant')
    .requiredOption('--merchant <merchant-id>', 'the merchant')
    .action(async (options: { merchant: string }, command: Command) => {
      const context = contextOf(command);
      const query = { limit: 100, merchant_id: options.merchant };
      printList(context.output, await collect(context.admin().list('/admin/forwarder/destinations', { params: { query } })), DESTINATION_COLUMNS);
    });
  destinations
    .command('add <merchant-id> <url>')
    .description('Allows a merchant to forward to a URL (https)')
    .option('--mode <mode>', 'test or live')
    .action(async (merchantId: string, url: string, options: { mode?: 'test' | 'live' }, command: Command) => {
      const context = contextOf(command);
      printOne(
        context.output,
        await context
          .admin()
          .post('/admin/forwarder/destinations', { body: { merchant_id: merchantId, url, ...(options.mode ? { mode: options.mode } : {}) } }),
      );
    });
  destinations
    .command('remove <destination-id>')
    .description('Withdraws a forward destination')
    .requiredOption('--merchant <merchant-id>', 'the merchant it was added for')
    .action(async (destinationId: string, options: { merchant: string }, command: Command) => {
      const context = contextOf(command);
      await context.admin().delete('/admin/forwarder/destinations/{destination_id}', {
        params: { path: { destination_id: destinationId }, query: { merchant_id: options.merchant } },
      });
      printOne(context.output, { id: destinationId, removed: true });
    });

  // The vault's key rotation is served under /admin/vault and is not (yet) in the admin OpenAPI document.
  const rotations = program.command('key-rotation').description("Operators: rotation of the vault's key-encryption key (start, status)");
  rotations
    .command('start')
    .description('Re-wraps every data key under KEK version N (add it to VAULT_KEK_KEYS and restart the vault first)')
    .requiredOption('--to-version <n>', 'the KEK version to rotate to', wholeNumber)
    .action(async (options: { toVersion: number }, command: Command) => {
      const context = contextOf(command);
      printOne(context.output, await context.admin().request('POST', '/admin/vault/key-rotations', { body: { to_version: options.toVersion } }));
    });
  rotations
    .command('get <rotation-id>')
    .description("Shows a rotation's progress")
    .action(async (rotationId: string, _options: object, command: Command) => {
      const context = contextOf(command);
      printOne(context.output, await context.admin().request('GET', `/admin/vault/key-rotations/${encodeURIComponent(rotationId)}`));
    });
}
