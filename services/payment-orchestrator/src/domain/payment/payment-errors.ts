import { AppError, ConflictError, NotFoundError, ValidationError } from '@vaultline/core';

export class PaymentNotFound extends NotFoundError {
  constructor() {
    super('payment');
  }
}

/** A programming error (a move the transition table does not allow): never a merchant's fault. */
export class IllegalPaymentMove extends AppError {
  constructor(from: string, to: string) {
    super('illegal_payment_move', 500, `A payment cannot move from ${from} to ${to}.`);
  }
}

export class CaptureNotAllowed extends ConflictError {
  constructor(detail: string) {
    super('capture_not_allowed', detail);
  }
}

export class AlreadyCaptured extends ConflictError {
  constructor() {
    super('already_captured', "This payment's final capture was made (or is under way): nothing is left to capture.");
  }
}

export class AmountExceedsAuthorized extends ValidationError {
  constructor(capturable: number) {
    super('amount', `amount must not exceed amount.capturable, ${capturable} (the authorized amount, less what was captured).`, 'amount_exceeds_authorized');
  }
}

export class MultipleCapturesNotSupported extends ValidationError {
  constructor(processor: string) {
    super(
      'final_capture',
      `The processor ${processor} makes one capture per payment (its final one releases the rest); send final_capture true, or enable multiple captures on the processor account (its settings).`,
      'multiple_captures_not_supported',
    );
  }
}

export class CurrencyMismatch extends ValidationError {
  constructor(expected: string) {
    super('currency_code', `currency_code must be the payment's currency, ${expected}.`, 'currency_mismatch');
  }
}

export class PartialCaptureNotSupported extends ValidationError {
  constructor(processor: string) {
    super('amount', `The processor ${processor} does not support partial captures; capture the full amount.`, 'partial_capture_not_supported');
  }
}

export class InitialPaymentNotSuccessful extends ConflictError {
  constructor() {
    super('initial_payment_not_successful', 'The initial payment is neither authorized nor captured; subsequent payments need a successful initial payment.');
  }
}

export class UseCaseMismatch extends ValidationError {
  constructor(expected: string, actual: string) {
    super('payment_id', `The initial payment is a ${actual} payment; this path takes ${expected} initial payments.`, 'use_case_mismatch');
  }
}

export class AmountExceedsInitial extends ValidationError {
  constructor() {
    super('amount', 'amount must not exceed the amount of the initial payment.', 'amount_exceeds_initial');
  }
}

export class RecurringFrequencyNotRespected extends ValidationError {
  constructor(days: number, nextAllowedAt: string) {
    super(
      'recurring_frequency',
      `A subsequent payment on these credentials needs ${days} day(s) since the last one; the next is allowed from ${nextAllowedAt} (UTC days).`,
      'recurring_frequency_not_respected',
    );
  }
}

export class CredentialsExpired extends ValidationError {
  constructor(expiry: string) {
    super('recurring_expiry', `The stored credentials expired after ${expiry}.`, 'credentials_expired');
  }
}

export class SimulatorNotAllowedInLiveMode extends ValidationError {
  constructor(flow: string) {
    super(
      'flow',
      `The flow ${flow} uses the simulator, which serves test-mode payments only; define a flow of real processors for live payments.`,
      'simulator_not_allowed_in_live_mode',
    );
  }
}

export class AuthenticationNotConfigured extends ValidationError {
  constructor(flow: string) {
    super('authentication_preference', `REQUIRE_3RI needs a 3RI step, and the flow ${flow} has none.`, 'authentication_not_configured');
  }
}

export class CancelNotAllowed extends ConflictError {
  constructor(detail: string) {
    super('cancel_not_allowed', detail);
  }
}
