import type { Command } from 'commander';
import type { MerchantComponents } from '@vaultline/node';
import { collect } from '../collect';
import { contextOf, wholeNumber } from '../context';
import { printList, printOne, type Column } from '../output';

type Customer = MerchantComponents['schemas']['Customer'];

const CUSTOMER_COLUMNS: Array<Column<Customer>> = [
  { header: 'id', value: (c) => c.id },
  { header: 'name', value: (c) => c.name },
  { header: 'email', value: (c) => c.email },
  { header: 'created', value: (c) => c.created_at },
];

export function customersCommand(program: Command): void {
  const customers = program.command('customers').description('Customers (whom stored cards and mandates belong to): list, show, create');

  customers
    .command('list')
    .description('Lists customers, newest first')
    .option('--limit <n>', 'at most this many customers', wholeNumber, 20)
    .action(async (options: { limit: number }, command: Command) => {
      const context = contextOf(command);
      const listed = context.merchant().list('/customers', { params: { query: { limit: Math.min(100, Math.max(1, options.limit)) } } });
      printList(context.output, await collect(listed, options.limit), CUSTOMER_COLUMNS);
    });

  customers
    .command('get <customer-id>')
    .description('Shows a customer')
    .action(async (customerId: string, _options: object, command: Command) => {
      const context = contextOf(command);
      printOne(context.output, await context.merchant().get('/customers/{customer_id}', { params: { path: { customer_id: customerId } } }));
    });

  customers
    .command('create <name>')
    .description('Creates a customer')
    .option('--email <email>', "the customer's email address")
    .action(async (name: string, options: { email?: string }, command: Command) => {
      const context = contextOf(command);
      const body = { name, ...(options.email ? { email: options.email } : {}) };
      printOne(context.output, await context.merchant().post('/customers', { body }));
    });
}
