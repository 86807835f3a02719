import type { z } from 'zod';
import type { ProcessorManifest } from '@vaultline/contracts';
import type { Clock } from '@vaultline/core';
import type { CaptureOutcome, RefundOutcome, ProcessorConnection } from '../domain/processor-port/processor-port';
import type { ProcessorCapabilities } from '../domain/processor-port/processor-lookup';
import type { ProcessorAccountSettings } from '../domain/processor-accounts/processor-account';
import type { ProcessorAmounts } from '../domain/processor-port/processor-amounts';
import type { NotificationReceipt, VerifiedItem } from '../domain/processor-notifications/receive-processor-notification';
import type { ProcessorTransport } from './transport-port';

export interface ProcessorContext {
  clock: Clock;
  /** Real processors: how requests reach them (the forwarder for card data, egress otherwise). */
  transport?: ProcessorTransport;
  /** Real processors: how a capture settled, by the processor's notification (null while none arrived). */
  captureSettlement?: (reference: string) => Promise<CaptureOutcome | null>;
  /** Real processors: how a refund settled, by the processor's notification (null while none arrived). */
  refundSettlement?: (reference: string) => Promise<RefundOutcome | null>;
}

/** What the processor is answered once a notification was read: an answer, or a refusal (a problem). */
export type NotificationAnswer =
  { status: 200; contentType: 'text/plain' | 'application/json'; body: string } | { refused: 'invalid_signature' | 'invalid_notification'; detail: string };

/**
 * How a processor notifies: the request headers its verification reads, the verification and parsing of
 * a body with the account's credentials (null: not a notification of this processor), and what the
 * processor is answered so it stops (or keeps) delivering.
 */
export interface ProcessorNotifications {
  /** Lower case. */
  headers: readonly string[];
  verify(credentials: unknown, rawBody: Buffer, headers: Record<string, string | undefined>, now: Date): VerifiedItem[] | null;
  answer(receipt: NotificationReceipt): NotificationAnswer;
}

interface PluginFacts {
  /**
   * Its manifest, `manifest.json` in its folder (data only, libs/contracts processor-manifest.ts): its id
   * (the registry key), display name, hosts and paths per purpose and mode with their card fields, the
   * headers it forwards, its credential fields (the hint's secret among them) and its account settings.
   */
  manifest: ProcessorManifest;
  capabilities: ProcessorCapabilities;
  /** Its currency units, steps, minimum and maximum (`<id>.amounts.ts`); absent: ISO minor units, no limits. */
  amounts?: ProcessorAmounts;
  /**
   * Its account credentials as a merchant gives them (POST/PATCH /processor-accounts; strict: an unknown
   * key is refused naming it, never quoting a value): the manifest's credential fields, each with its rule.
   */
  credentials: z.ZodType<Record<string, unknown>>;
  notifications?: ProcessorNotifications;
  /**
   * Account settings beyond the manifest's (which are the dashboard form's switches): values of other types,
   * each with its default as an account shows it (the simulator's approval_rate and outage windows, for
   * routing in test mode). Their values are checked by the route's schema.
   */
  extraSettings?: Readonly<Record<string, unknown>>;
}

/**
 * A processor opened once at start from configuration (the built-in simulator): its accounts all use
 * that connection, adapted to the account's settings.
 */
export interface BuiltInProcessorPlugin<O = unknown> extends PluginFacts {
  opens: 'at_start';
  optionsSchema: z.ZodType<O>;
  open(options: O, context: ProcessorContext): ProcessorConnection;
  /** The connection as one of the merchant's accounts at this processor: its settings, its id (a simulator account declines independently of another). */
  forAccount?(connection: ProcessorConnection, settings: ProcessorAccountSettings, account: { id: string }): ProcessorConnection;
}

/** The options a per-account processor is opened with: the account's credentials, its base URL override, the payment's key mode. */
export interface AccountOptions<C> {
  credentials: C;
  base_url: string | null;
  mode: 'test' | 'live';
  /** The account's settings the plugin reads (those its manifest lists), absent or empty when none is set. */
  settings?: { multiple_partial_captures?: boolean | undefined };
}

/** A processor opened per processor account, with the account's credentials, for the payment's mode. */
export interface AccountProcessorPlugin<C = unknown> extends PluginFacts {
  opens: 'per_account';
  optionsSchema: z.ZodType<AccountOptions<C>>;
  open(options: AccountOptions<C>, context: ProcessorContext): ProcessorConnection;
}

/**
 * Everything about one processor, in its folder: its manifest (the data every service reads), its
 * capabilities and amounts, its credentials' rules, how it is opened (the pure mappers behind it), how it
 * notifies and what it is answered. A connection holds no per-request state: one serves every payment.
 * Its stand-in's contract cases sit beside it (`<id>/<id>.contract-cases.ts`), run by
 * processors.contract.test.ts for every registered plugin.
 */
// Each plugin has its own options type; the engine only needs them to agree with their own schema.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ProcessorPlugin<O = any> = BuiltInProcessorPlugin<O> | AccountProcessorPlugin<O>;

/** The plugins an app runs with, by id (the registry, or a test's own set). */
export type ProcessorPlugins = Readonly<Record<string, ProcessorPlugin>>;
