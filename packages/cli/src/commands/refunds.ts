import type { Command } from 'commander';
import type { MerchantComponents } from '@vaultline/node';
import { contextOf, wholeNumber } from '../context';
import { money, printList, printOne, type Column } from '../output';

type Refund = MerchantComponents['schemas']['Refund'];
type RefundRequest = MerchantComponents['schemas']['RefundRequest'];

const REFUND_COLUMNS: Array<Column<Refund>> = [
  { header: 'id', value: (r) => r.id },
  { header: 'status', value: (r) => r.status },
  { header: 'amount', value: (r) => money(r.amount, r.currency_code) },
  { header: 'reason', value: (r) => r.reason },
  { header: 'created', value: (r) => r.created_at },
];

export interface RefundOptions {
  amount?: number;
  reason?: RefundRequest['reason'];
  reference?: string;
}

export const refundBody = (options: RefundOptions): RefundRequest => ({
  ...(options.amount !== undefined ? { amount: options.amount } : {}),
  ...(options.reason ? { reason: options.reason } : {}),
  ...(options.reference ? { reference: options.reference } : {}),
});

export function refundsCommand(program: Command): void {
  const refunds = program.command('refunds').description('Refunds of captured payments: create, list');

  refunds
    .command('create <payment-id>')
    .description('Refunds a captured payment, in full or (with --amount) in part')
    .option('--amount <minor units>', 'partial refund: this amount in minor units', wholeNumber)
    .option('--reason <reason>', 'requested_by_customer, duplicate or fraudulent')
    .option('--reference <text>', 'your reference of the refund')
    .action(async (paymentId: string, options: RefundOptions, command: Command) => {
      const context = contextOf(command);
      printOne(
        context.output,
        await context.merchant().post('/payments/{payment_id}/refunds', { params: { path: { payment_id: paymentId } }, body: refundBody(options) }),
      );
    });

  refunds
    .command('list <payment-id>')
    .description('Lists the refunds of a payment')
    .action(async (paymentId: string, _options: object, command: Command) => {
      const context = contextOf(command);
      printList(
        context.output,
        (await context.merchant().get('/payments/{payment_id}/refunds', { params: { path: { payment_id: paymentId } } })).data,
        REFUND_COLUMNS,
      );
    });
}
