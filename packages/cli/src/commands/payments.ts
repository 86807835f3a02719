import type { Command } from 'commander';
import type { MerchantComponents } from '@vaultline/node';
import { collect } from '../collect';
import { contextOf, wholeNumber } from '../context';
import { money, printList, printOne, type Column } from '../output';
import { refundBody, type RefundOptions } from './refunds';

type AnyPayment = MerchantComponents['schemas']['AnyPayment'];
type Transaction = MerchantComponents['schemas']['ProcessorTransaction'];

interface ListOptions {
  status?: string;
  useCase?: string;
  reference?: string;
  limit: number;
  order: 'asc' | 'desc';
}

const amountOf = (payment: AnyPayment): number => (typeof payment.amount === 'number' ? payment.amount : payment.amount.requested);

const PAYMENT_COLUMNS: Array<Column<AnyPayment>> = [
  { header: 'id', value: (p) => p.id },
  { header: 'status', value: (p) => p.status },
  { header: 'amount', value: (p) => money(amountOf(p), p.currency_code) },
  { header: 'use case', value: (p) => p.use_case },
  { header: 'reference', value: (p) => p.reference },
  { header: 'created', value: (p) => p.created_at },
];

const TRANSACTION_COLUMNS: Array<Column<Transaction>> = [
  { header: 'kind', value: (t) => t.kind },
  { header: 'processor', value: (t) => t.processor },
  { header: 'status', value: (t) => t.status },
  { header: 'failure', value: (t) => t.failure_reason },
  { header: 'created', value: (t) => t.created_at },
];

/** The filters the API does not take (it pages by time only) are applied here, page by page. */
function matches(payment: AnyPayment, options: ListOptions): boolean {
  if (options.status && payment.status !== options.status) return false;
  if (options.useCase && payment.use_case.toLowerCase() !== options.useCase.toLowerCase()) return false;
  if (options.reference && !(payment.reference ?? '').startsWith(options.reference)) return false;
  return true;
}

export function paymentsCommand(program: Command): void {
  const payments = program.command('payments').description('Payments: create, list, show, capture, cancel, refund (merchant API key)');

  payments
    .command('create')
    .description('Creates a one-off payment; the consumer pays it on the hosted page (the checkout link is printed)')
    .requiredOption('--amount <minor units>', 'the amount in minor units (1999 = 19.99)', wholeNumber)
    .option('--currency <code>', 'the currency', 'EUR')
    .option('--reference <text>', 'your reference (the flow matrix can route on its prefix)')
    .option('--description <text>', 'one line the hosted page shows under the amount')
    .option('--return-url <url>', 'where the hosted page sends the consumer once the outcome is known')
    .action(async (options: { amount: number; currency: string; reference?: string; description?: string; returnUrl?: string }, command: Command) => {
      const context = contextOf(command);
      const vaultline = context.merchant();
      const body = {
        amount: options.amount,
        currency_code: options.currency.toUpperCase(),
        source: { type: 'vaultline' as const },
        ...(options.reference ? { reference: options.reference } : {}),
        ...(options.description ? { description: options.description } : {}),
        ...(options.returnUrl ? { return_url: options.returnUrl } : {}),
      };
      const payment = await vaultline.post('/payments/one-off', { body });
      const sessionId = payment.action_requirement?.session_id;
      const checkout = sessionId ? `${vaultline.baseUrl}/checkout/${sessionId}` : null;
      if (context.output.json) return printOne(context.output, payment);
      printOne(context.output, {
        id: payment.id,
        status: payment.status,
        amount: money(amountOf(payment), payment.currency_code),
        reference: payment.reference,
        checkout,
      });
    });

  payments
    .command('list')
    .description('Lists payments, newest first; the filters are applied by the CLI while it pages')
    .option('--status <status>', 'only payments in this status (processing, authorized, capturing, captured, failed, …)')
    .option('--use-case <use case>', 'only this use case (ONE_OFF, RECURRING, guest_payment, …)')
    .option('--reference <prefix>', 'only payments whose reference starts with this')
    .option('--limit <n>', 'at most this many payments', wholeNumber, 20)
    .option('--order <order>', 'desc (newest first) or asc', 'desc')
    .action(async (options: ListOptions, command: Command) => {
      const context = contextOf(command);
      const pageSize = Math.min(100, Math.max(options.limit, 10));
      const payments = context.merchant().list('/payments', { params: { query: { limit: pageSize, order: options.order } } });
      printList(context.output, await collect(payments, options.limit, (payment) => matches(payment, options)), PAYMENT_COLUMNS);
    });

  payments
    .command('get <payment-id>')
    .description('Shows a payment and its processor transactions')
    .action(async (paymentId: string, _options: object, command: Command) => {
      const context = contextOf(command);
      const vaultline = context.merchant();
      const payment = await vaultline.get('/payments/{payment_id}', { params: { path: { payment_id: paymentId } } });
      const transactions = (await vaultline.get('/payments/{payment_id}/transactions', { params: { path: { payment_id: paymentId } } })).data;
      if (context.output.json) return printOne(context.output, { ...payment, transactions });
      printOne(context.output, { ...payment, amount: money(amountOf(payment), payment.currency_code) });
      context.output.write('\nTransactions\n');
      printList(context.output, transactions, TRANSACTION_COLUMNS);
    });

  payments
    .command('capture <payment-id>')
    .description('Captures an authorized payment, in full or (with --amount) in part')
    .option('--amount <minor units>', 'partial capture: this amount in minor units', wholeNumber)
    .option('--currency <code>', "with --amount: the payment currency (default: the payment's)")
    .option('--reference <text>', 'the capture reference')
    .action(async (paymentId: string, options: { amount?: number; currency?: string; reference?: string }, command: Command) => {
      const context = contextOf(command);
      const vaultline = context.merchant();
      const currency =
        options.amount !== undefined
          ? (options.currency ?? (await vaultline.get('/payments/{payment_id}', { params: { path: { payment_id: paymentId } } })).currency_code)
          : undefined;
      const body = {
        ...(options.reference ? { reference: options.reference } : {}),
        ...(options.amount !== undefined ? { amount: options.amount, currency_code: currency } : {}),
      };
      printOne(context.output, await vaultline.post('/payments/{payment_id}/capture', { params: { path: { payment_id: paymentId } }, body }));
    });

  // Cancel and refund are newer than some API versions: called by path, whatever the generated types know.
  payments
    .command('cancel <payment-id>')
    .description('Cancels (voids) an authorized payment that was not captured')
    .option('--reason <text>', 'why, kept with the payment')
    .action(async (paymentId: string, options: { reason?: string }, command: Command) => {
      const context = contextOf(command);
      const body = options.reason ? { reason: options.reason } : {};
      printOne(context.output, await context.merchant().request('POST', `/payments/${encodeURIComponent(paymentId)}/cancel`, { body }));
    });

  payments
    .command('refund <payment-id>')
    .description('Refunds a captured payment, in full or (with --amount) in part (the same as refunds create)')
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
}
