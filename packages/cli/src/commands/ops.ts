import type { Command } from 'commander';
import type { AdminComponents, VaultlineAdmin } from '@vaultline/node';
import { contextOf, wholeNumber } from '../context';
import { UsageError } from '../exit-codes';
import { printList, printOne, type Column } from '../output';

type DeadLetter = AdminComponents['schemas']['DeadLetter'];
type ParkedMessage = AdminComponents['schemas']['ParkedOutboxMessage'];
interface Page<Item> {
  data: Item[];
  has_more: boolean;
  next_cursor: string | null;
}

/** The services that keep dead letters and parked outbox messages (/admin/<service>/…). */
const SERVICES = ['vault', 'forwarder', 'importer', 'payment-orchestrator', 'notifier'] as const;
type Service = (typeof SERVICES)[number];

function serviceOf(name: string): Service {
  if (!(SERVICES as readonly string[]).includes(name)) throw new UsageError(`--service must be one of ${SERVICES.join(', ')} (got ${name}).`);
  return name as Service;
}

const LETTER_COLUMNS: Array<Column<DeadLetter & { service: string }>> = [
  { header: 'service', value: (d) => d.service },
  { header: 'id', value: (d) => d.id },
  { header: 'group', value: (d) => d.group },
  { header: 'event', value: (d) => d.event_type ?? '(not an event)' },
  { header: 'state', value: (d) => d.state },
  { header: 'attempts', value: (d) => d.attempts },
  { header: 'failed', value: (d) => d.failed_at },
  { header: 'error', value: (d) => d.error },
];
const PARKED_COLUMNS: Array<Column<ParkedMessage & { service: string }>> = [
  { header: 'service', value: (m) => m.service },
  { header: 'id', value: (m) => m.id },
  { header: 'topic', value: (m) => m.topic },
  { header: 'key', value: (m) => m.key },
  { header: 'attempts', value: (m) => m.attempts },
  { header: 'parked', value: (m) => m.parked_at },
  { header: 'error', value: (m) => m.error },
];

/** Up to `limit` items of an admin list, page after page. */
async function pages<Item>(admin: VaultlineAdmin, path: string, query: Record<string, string | undefined>, limit: number): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: string | undefined;
  do {
    const page = await admin.request<Page<Item>>('GET', path, {
      query: { ...query, limit: String(Math.min(100, limit - items.length)), starting_after: cursor },
    });
    items.push(...page.data);
    cursor = page.has_more && page.next_cursor ? page.next_cursor : undefined;
  } while (cursor && items.length < limit);
  return items;
}

/** `vaultline ops`: the services' dead letters and parked outbox messages (the operator API; every call audited). */
export function opsCommand(program: Command): void {
  const ops = program.command('ops').description("Operators: the services' dead letters and parked outbox messages");

  const letters = ops.command('dead-letters').description('Messages a consumer group failed to handle after its retries');
  letters
    .command('list')
    .description('Lists dead letters, newest first (every service unless --service)')
    .option('--service <service>', `one of ${SERVICES.join(', ')}`)
    .option('--group <group>', 'only this consumer group')
    .option('--state <state>', 'dead (waiting) or replayed')
    .option('--limit <n>', 'at most this many per service', wholeNumber, 100)
    .action(async (options: { service?: string; group?: string; state?: string; limit: number }, command: Command) => {
      const context = contextOf(command);
      if (options.state !== undefined && options.state !== 'dead' && options.state !== 'replayed') throw new UsageError('--state must be dead or replayed.');
      const services = options.service ? [serviceOf(options.service)] : SERVICES;
      const rows: Array<DeadLetter & { service: string }> = [];
      for (const service of services) {
        const found = await pages<DeadLetter>(context.admin(), `/admin/${service}/dead-letters`, { group: options.group, state: options.state }, options.limit);
        rows.push(...found.map((letter) => ({ service, ...letter })));
      }
      printList(context.output, rows, LETTER_COLUMNS);
    });
  letters
    .command('replay [dead-letter-id]')
    .description('Runs a dead letter (or, with --all, every dead one of the service) through the group that failed it, once')
    .requiredOption('--service <service>', `one of ${SERVICES.join(', ')}`)
    .option('--all', "every dead letter of the service still waiting (with --group: that group's)")
    .option('--group <group>', 'with --all: only this consumer group')
    .action(async (id: string | undefined, options: { service: string; all?: boolean; group?: string }, command: Command) => {
      const context = contextOf(command);
      const service = serviceOf(options.service);
      if ((id === undefined) === !options.all) throw new UsageError('Name one dead letter, or pass --all.');
      const ids = id
        ? [id]
        : (await pages<DeadLetter>(context.admin(), `/admin/${service}/dead-letters`, { state: 'dead', group: options.group }, 10_000)).map((d) => d.id);
      const replayed: Array<DeadLetter & { service: string }> = [];
      for (const each of ids) {
        replayed.push({ service, ...(await context.admin().request<DeadLetter>('POST', `/admin/${service}/dead-letters/${encodeURIComponent(each)}/replay`)) });
      }
      if (id) printOne(context.output, replayed[0]);
      else printList(context.output, replayed, LETTER_COLUMNS);
    });

  const outbox = ops.command('outbox').description('Outbox messages the relay parked because the bus kept refusing them');
  outbox
    .command('list')
    .description('Lists parked messages, newest first (every service unless --service)')
    .option('--service <service>', `one of ${SERVICES.join(', ')}`)
    .option('--limit <n>', 'at most this many per service', wholeNumber, 100)
    .action(async (options: { service?: string; limit: number }, command: Command) => {
      const context = contextOf(command);
      const services = options.service ? [serviceOf(options.service)] : SERVICES;
      const rows: Array<ParkedMessage & { service: string }> = [];
      for (const service of services) {
        const found = await pages<ParkedMessage>(context.admin(), `/admin/${service}/outbox/parked`, {}, options.limit);
        rows.push(...found.map((message) => ({ service, ...message })));
      }
      printList(context.output, rows, PARKED_COLUMNS);
    });
  outbox
    .command('unpark <message-id>')
    .description('Puts a parked message back in the outbox (it goes out after what was committed since)')
    .requiredOption('--service <service>', `one of ${SERVICES.join(', ')}`)
    .action(async (id: string, options: { service: string }, command: Command) => {
      const context = contextOf(command);
      const service = serviceOf(options.service);
      printOne(context.output, await context.admin().request<ParkedMessage>('POST', `/admin/${service}/outbox/parked/${encodeURIComponent(id)}/unpark`));
    });
}
