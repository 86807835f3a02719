import { randomBytes } from 'node:crypto';
import type { Command } from 'commander';
import { contextOf, wholeNumber } from '../context';
import { UsageError } from '../exit-codes';
import { listen, startFromNow } from '../listen/listener';

interface ListenCommandOptions {
  forwardTo: string;
  events?: string;
  after?: string;
  secret?: string;
  wait: number;
  count?: number;
}

/** A Standard Webhooks secret: whsec_ and base64 of 32 random bytes, as the service gives its endpoints. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export function listenCommand(program: Command): void {
  program
    .command('listen')
    .description('Receives your events over the API (no public URL, no endpoint) and forwards each, signed, to a local URL')
    .requiredOption('--forward-to <url>', 'where to POST each event, e.g. http://localhost:4242/webhooks/vaultline')
    .option('--events <types>', 'only these event types, comma-separated (default: every type)')
    .option('--after <event-id>', 'resume after this event (the id printed when listen stopped); default: from now')
    .option('--secret <whsec>', 'sign with this secret instead of a new one (keep the one your app already verifies with)')
    .option('--wait <seconds>', 'how long each long poll waits on the service (1-25)', wholeNumber, 10)
    .option('--count <n>', 'stop after forwarding this many events', wholeNumber)
    .addHelpText(
      'after',
      [
        '',
        'Each event is POSTed as the service would send the webhook (body {type, timestamp, livemode, data};',
        'headers webhook-id = the event id, webhook-timestamp, webhook-signature), signed with the secret',
        'printed at start: give it to your app (the example shop: VAULTLINE_WEBHOOK_SECRET=whsec_…).',
        'Each line: time, type, event id, and the status your app answered. Ctrl-C stops and prints the',
        'id to resume from with --after.',
      ].join('\n'),
    )
    .action(async (options: ListenCommandOptions, command: Command) => {
      const context = contextOf(command);
      let url: URL;
      try {
        url = new URL(options.forwardTo);
      } catch {
        throw new UsageError(`--forward-to must be a URL (http://localhost:4242/webhooks/vaultline), not ${JSON.stringify(options.forwardTo)}.`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError('--forward-to must be an http or https URL.');
      if (options.secret !== undefined && !/^whsec_[A-Za-z0-9+/]{20,}={0,2}$/.test(options.secret))
        throw new UsageError('--secret must be a whsec_… secret (base64 after whsec_).');
      if (options.wait < 1 || options.wait > 25) throw new UsageError('--wait takes 1 to 25 seconds.');
      const vaultline = context.merchant();
      const secret = options.secret ?? newSecret();
      const cursor: { after?: string } = options.after ? { after: options.after } : {};
      process.once('SIGINT', () => {
        process.stderr.write(
          cursor.after ? `\nStopped. Resume with: vaultline listen --forward-to ${options.forwardTo} --after ${cursor.after}\n` : '\nStopped.\n',
        );
        process.exit(0);
      });
      await startFromNow(vaultline, cursor);
      // On stderr, so stdout holds one line per event (one JSON object per line with --json).
      process.stderr.write(`Ready: forwarding ${vaultline.mode}-mode events of ${vaultline.baseUrl} to ${url.href} (Ctrl-C to stop)\n`);
      if (!options.secret) process.stderr.write(`Your webhook signing secret is ${secret} (shown once; pass it back with --secret to keep it)\n`);
      const events = options.events
        ?.split(',')
        .map((type) => type.trim())
        .filter((type) => type !== '');
      await listen(
        vaultline,
        context.output,
        {
          forwardTo: url.href,
          secret,
          waitSeconds: options.wait,
          ...(events ? { events } : {}),
          ...(options.count !== undefined ? { count: options.count } : {}),
        },
        cursor,
      );
    });
}
