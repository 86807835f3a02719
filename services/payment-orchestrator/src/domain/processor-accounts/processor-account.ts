import type { Mode } from '@vaultline/core';
import { ConflictError, NotFoundError, ValidationError } from '@vaultline/core';

/** The processor an account is at: a processor plugin's id (the registry decides which exist). */
export type AccountProcessor = string;

export interface ProcessorAccountSettings {
  /** Overrides the processor's default host; only an allowed forward destination is accepted. */
  base_url: string | null;
  /**
   * Only for processors whose plugin takes it (ProcessorAccountShape.settings): whether the processor
   * declares explicit unscheduled merchant-initiated payments (absent: true). false makes it behave as a
   * processor that knows only recurring ones.
   */
  explicit_unscheduled?: boolean;
  /**
   * Only for processors whose plugin takes it (Adyen): whether multiple partial captures are enabled on the
   * account at the processor (absent: false). Then a capture with final_capture false keeps the rest of the
   * authorization for later captures, and the final one is followed by a cancel of what is left.
   */
  multiple_partial_captures?: boolean;
  /**
   * Only for simulator accounts: the share of ordinary cards the account approves, 0 to 1 (absent: 1). The
   * rest are declined card_declined (do not honour), the same payments every time; two accounts decline
   * independently. Test cards keep their own behaviour.
   */
  approval_rate?: number;
  /** Only for simulator accounts: windows in which it answers nothing (processor_unavailable), on the payment's effective time (the test clock). */
  outage?: Array<{ from: string; to: string }>;
  /**
   * Only for simulator accounts: when set, approval_rate draws from this seed and the payment's reference,
   * so the same references get the same answers in every run (absent or null: from the account's id and the
   * payment's own key, new in every run).
   */
  seed?: string | null;
}

/** A merchant's account at a processor. The credentials are sealed at rest and never leave this service. */
export interface ProcessorAccount {
  id: string;
  merchant_id: string;
  /** The mode of the key that made it: a key of the other mode never sees it. */
  mode: Mode;
  processor: AccountProcessor;
  name: string;
  settings: ProcessorAccountSettings;
  /** The credentials object as JSON, sealed with the account's id and merchant as context. */
  sealed_credentials: string;
  /** What a merchant may see of the credentials: the last four characters of the main secret. */
  credentials_hint: string | null;
  credentials_updated_at: string;
  created_at: string;
  updated_at: string;
  version: number;
}

/** Bound into the sealed value: credentials sealed for one account do not open for another. */
export const credentialsContext = (account: Pick<ProcessorAccount, 'merchant_id' | 'id'>): string => `processor-account:${account.merchant_id}:${account.id}`;

/** `…` and the last four characters; nothing for a secret too short to show any of it safely. */
export function maskedHint(secret: string | undefined): string | null {
  if (!secret || secret.length < 12) return null;
  return `…${secret.slice(-4)}`;
}

export class ProcessorAccountNotFound extends NotFoundError {
  constructor() {
    super('processor_account');
  }
}

export class ProcessorAccountLimitReached extends ConflictError {
  constructor(limit: number) {
    super('processor_account_limit_reached', `A merchant has at most ${limit} processor accounts; delete one first.`);
  }
}

/** Deleting an account a flow names would leave the flow pointing at nothing: the flows keep their steps (flows are never edited), so the account stays. */
export class ProcessorAccountInUse extends ConflictError {
  constructor(flows: string[]) {
    super(
      'processor_account_in_use',
      `The flows ${flows.join(', ')} name this processor account in their steps (flows are never changed), so it is kept for them.`,
      { flows },
    );
  }
}

/** invalid_credentials, or a more precise code the processor's plugin gave (webhook_secret_too_short). */
export class InvalidCredentials extends ValidationError {
  constructor(field: string, detail: string, code = 'invalid_credentials') {
    super(field, detail, code);
  }
}

export class DestinationNotAllowed extends ValidationError {
  constructor(url: string) {
    super(
      'settings.base_url',
      `${url} is not an allowed forward destination for this processor; list it in FORWARD_EXTRA_DESTINATIONS (and set FORWARD_HTTPS_ONLY=false for plain http).`,
      'destination_not_allowed',
    );
  }
}
