import type { Command } from 'commander';
import type { MerchantComponents } from '@vaultline/node';
import { collect } from '../collect';
import { contextOf, wholeNumber } from '../context';
import { printList, printOne, type Column } from '../output';

type Endpoint = MerchantComponents['schemas']['WebhookEndpoint'];
type Delivery = MerchantComponents['schemas']['WebhookDelivery'];
type EventType = NonNullable<MerchantComponents['schemas']['CreateWebhookEndpointRequest']['events']>[number];

const ENDPOINT_COLUMNS: Array<Column<Endpoint>> = [
  { header: 'id', value: (e) => e.id },
  { header: 'url', value: (e) => e.url },
  { header: 'enabled', value: (e) => e.enabled },
  { header: 'events', value: (e) => (e.events.length ? e.events.join(',') : 'all') },
  { header: 'description', value: (e) => e.description },
];

const DELIVERY_COLUMNS: Array<Column<Delivery>> = [
  { header: 'id', value: (d) => d.id },
  { header: 'event', value: (d) => d.event_type },
  { header: 'status', value: (d) => d.status },
  { header: 'attempts', value: (d) => d.attempt_count },
  { header: 'last attempt', value: (d) => d.last_attempt_at },
  { header: 'failure', value: (d) => d.failure_reason },
];

export function webhooksCommand(program: Command): void {
  const webhooks = program.command('webhooks').description('Webhook endpoints and their deliveries: list, create, deliveries, replay');

  webhooks
    .command('list')
    .description('Lists the webhook endpoints')
    .action(async (_options: object, command: Command) => {
      const context = contextOf(command);
      printList(context.output, await collect(context.merchant().list('/webhook-endpoints', { params: { query: { limit: 100 } } })), ENDPOINT_COLUMNS);
    });

  webhooks
    .command('create <url>')
    .description('Adds a webhook endpoint; its signing secret (whsec_…) is shown this one time')
    .option('--events <types>', 'comma-separated event types (default: every type)')
    .option('--description <text>', 'a note for people')
    .action(async (url: string, options: { events?: string; description?: string }, command: Command) => {
      const context = contextOf(command);
      const events = options.events ? (options.events.split(',').map((type) => type.trim()) as EventType[]) : undefined;
      const body = { url, ...(events ? { events } : {}), ...(options.description ? { description: options.description } : {}) };
      printOne(context.output, await context.merchant().post('/webhook-endpoints', { body }));
    });

  webhooks
    .command('deliveries <endpoint-id>')
    .description('Lists the deliveries to an endpoint, newest first')
    .option('--status <status>', 'only deliveries in this status (pending, succeeded, failed)')
    .option('--limit <n>', 'at most this many deliveries', wholeNumber, 20)
    .action(async (endpointId: string, options: { status?: Delivery['status']; limit: number }, command: Command) => {
      const context = contextOf(command);
      const query = { limit: Math.min(100, options.limit), ...(options.status ? { status: options.status } : {}) };
      const deliveries = context.merchant().list('/webhook-endpoints/{endpoint_id}/deliveries', { params: { path: { endpoint_id: endpointId }, query } });
      printList(context.output, await collect(deliveries, options.limit), DELIVERY_COLUMNS);
    });

  webhooks
    .command('replay <endpoint-id> <delivery-id>')
    .description('Sends a delivery again')
    .action(async (endpointId: string, deliveryId: string, _options: object, command: Command) => {
      const context = contextOf(command);
      const path = { endpoint_id: endpointId, delivery_id: deliveryId };
      printOne(context.output, await context.merchant().post('/webhook-endpoints/{endpoint_id}/deliveries/{delivery_id}/replay', { params: { path } }));
    });
}
