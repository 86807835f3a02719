import type { Command } from 'commander';
import type { MerchantComponents, Vaultline } from '@vaultline/node';
import { collect } from '../collect';
import { contextOf, wholeNumber } from '../context';
import { printList, printOne, table, type Column, type Output } from '../output';

type Event = MerchantComponents['schemas']['Event'];
type EventType = NonNullable<NonNullable<MerchantComponents['schemas']['CreateWebhookEndpointRequest']['events']>[number]>;

const EVENT_COLUMNS: Array<Column<Event>> = [
  { header: 'id', value: (e) => e.id },
  { header: 'type', value: (e) => e.type },
  { header: 'created', value: (e) => e.created_at },
];

interface TailOptions {
  type?: EventType;
  interval: number;
  count?: number;
}

/**
 * Follows the event log: starts after the newest event there is, then asks every `interval` ms for the
 * events after the last one seen (oldest first), until interrupted or `count` events were shown.
 * Each event is one line (one JSON object per line with --json).
 */
async function tail(vaultline: Vaultline, output: Output, options: TailOptions, stopped: () => boolean): Promise<void> {
  const type = options.type ? { type: options.type } : {};
  const newest = await vaultline.get('/events', { params: { query: { limit: 1, order: 'desc', ...type } } });
  let after = newest.data[0]?.id;
  let shown = 0;
  // On stderr, so that stdout holds only events (one JSON object per line with --json).
  process.stderr.write(`Waiting for ${options.type ?? 'new'} events (Ctrl-C to stop)…\n`);
  while (!stopped()) {
    const page = await vaultline.get('/events', { params: { query: { limit: 100, order: 'asc', ...type, ...(after ? { starting_after: after } : {}) } } });
    for (const event of page.data) {
      output.write(output.json ? `${JSON.stringify(event)}\n` : table([event], EVENT_COLUMNS).split('\n')[1] + '\n');
      after = event.id;
      shown += 1;
      if (options.count !== undefined && shown >= options.count) return;
    }
    if (!page.has_more) await new Promise((resolve) => setTimeout(resolve, options.interval));
  }
}

export function eventsCommand(program: Command): void {
  const events = program.command('events').description('The event log: list, show, tail');

  events
    .command('list')
    .description('Lists events, newest first')
    .option('--type <type>', 'only events of this type (payment.captured, token.created, …)')
    .option('--limit <n>', 'at most this many events', wholeNumber, 20)
    .action(async (options: { type?: EventType; limit: number }, command: Command) => {
      const context = contextOf(command);
      const query = { limit: Math.min(100, options.limit), ...(options.type ? { type: options.type } : {}) };
      printList(context.output, await collect(context.merchant().list('/events', { params: { query } }), options.limit), EVENT_COLUMNS);
    });

  events
    .command('get <event-id>')
    .description('Shows an event with its data')
    .action(async (eventId: string, _options: object, command: Command) => {
      const context = contextOf(command);
      printOne(context.output, await context.merchant().get('/events/{event_id}', { params: { path: { event_id: eventId } } }));
    });

  events
    .command('tail')
    .description('Follows new events as they happen (one line each; --json: one JSON object per line)')
    .option('--type <type>', 'only events of this type')
    .option('--interval <ms>', 'how often to ask for new events', wholeNumber, 1000)
    .option('--count <n>', 'stop after this many events', wholeNumber)
    .action(async (options: TailOptions, command: Command) => {
      const context = contextOf(command);
      let interrupted = false;
      process.once('SIGINT', () => {
        interrupted = true;
      });
      await tail(context.merchant(), context.output, options, () => interrupted);
    });
}
