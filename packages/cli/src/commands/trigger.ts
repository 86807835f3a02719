import type { Command } from 'commander';
import type { MerchantComponents } from '@vaultline/node';
import { contextOf } from '../context';
import { UsageError } from '../exit-codes';
import { printOne } from '../output';
import { TRIGGERS, TriggerApi } from '../trigger/triggers';

type Event = MerchantComponents['schemas']['Event'];

const list = () => Object.entries(TRIGGERS).map(([type, trigger]) => `  ${type.padEnd(27)} ${trigger.how}`);

export function triggerCommand(program: Command): void {
  program
    .command('trigger [event-type]')
    .description('Test mode: creates the test objects that cause an event (vaultline trigger payment.captured), then shows the event')
    .option('--list', 'list the event types that can be triggered, and how')
    .addHelpText(
      'after',
      [
        '',
        'Event types and what trigger does for each (a test key only; nothing is charged):',
        ...list(),
        '',
        'Not triggerable: import.started, import.completed, import.failed (they need an import platform',
        "account: vaultline imports start); early_fraud_warning.updated (only the processor's own report of the",
        'warning updates it).',
      ].join('\n'),
    )
    .action(async (type: string | undefined, options: { list?: boolean }, command: Command) => {
      const context = contextOf(command);
      if (options.list || type === undefined) {
        context.output.write(`${list().join('\n')}\n`);
        return;
      }
      const trigger = TRIGGERS[type];
      if (!trigger) throw new UsageError(`${type} cannot be triggered. These can:\n${list().join('\n')}`);
      const vaultline = context.merchant();
      if (vaultline.mode !== 'test') throw new UsageError('trigger creates test objects: use a test key (sk_test_…).');
      const api = new TriggerApi(vaultline);
      const done = await trigger.run(api);
      // The event, once the service recorded it: the newest of its type that names what the trigger made
      // (ids are unique: no clock of this machine is compared with the service's).
      const event = await api.until(async () => {
        const page = await vaultline.get('/events', { params: { query: { limit: 20, type: type as Event['type'] } } });
        return page.data.find((candidate) => JSON.stringify(candidate.data).includes(done.subject)) ?? null;
      }, `the ${type} event`);
      if (context.output.json) return printOne(context.output, { event, created: Object.fromEntries(done.created) });
      for (const [what, id] of done.created) context.output.write(`created ${what} ${id}\n`);
      context.output.write(`triggered ${event.type} ${event.id}\n`);
    });
}
