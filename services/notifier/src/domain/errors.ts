import { AppError, ConflictError, NotFoundError, ValidationError } from '@vaultline/core';

export class WebhookEndpointNotFoundError extends NotFoundError {
  constructor() {
    super('webhook_endpoint');
  }
}

export class DeliveryNotFoundError extends NotFoundError {
  constructor() {
    super('delivery');
  }
}

export class EventNotFoundError extends NotFoundError {
  constructor() {
    super('event');
  }
}

/** The URL is malformed, not https, or resolves to a private or loopback address. */
export class EndpointUrlNotAllowedError extends ValidationError {
  constructor(detail: string) {
    super('url', detail, 'url_not_allowed');
  }
}

export class UnknownEventTypeError extends ValidationError {
  constructor(type: string) {
    super('events', `Unknown event type ${JSON.stringify(type).slice(0, 80)}.`, 'unknown_event_type');
  }
}

export class DeliveryInProgressError extends ConflictError {
  constructor() {
    super('delivery_in_progress', 'An attempt of this delivery is in progress; try again when it has finished.');
  }
}

export class EndpointDisabledError extends ConflictError {
  constructor() {
    super('webhook_endpoint_disabled', 'The webhook endpoint is disabled; enable it before replaying or sending a test event.');
  }
}

export class TooManyEndpointsError extends AppError {
  constructor(limit: number) {
    super('too_many_webhook_endpoints', 409, `A merchant can register at most ${limit} webhook endpoints.`);
  }
}
