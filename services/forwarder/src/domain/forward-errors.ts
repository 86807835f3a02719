import { AppError, BadRequestError, NotFoundError, ValidationError } from '@vaultline/core';

export class DestinationNotAllowedError extends AppError {
  constructor(detail = 'The destination URL is not an allowed destination.') {
    super('destination_not_allowed', 403, detail, { field: 'X-DESTINATION-URL' });
  }
}

export class MissingHeaderError extends BadRequestError {
  constructor(header: string) {
    super(`The header ${header} is required.`, 'missing_header', { field: header });
  }
}

export class InvalidHeaderError extends ValidationError {
  constructor(header: string, detail: string) {
    super(header, detail, 'invalid_header');
  }
}

export class TokenNotFoundError extends NotFoundError {
  constructor() {
    super('token');
  }
}

export class TokenDeletedError extends AppError {
  constructor() {
    super('token_deleted', 410, 'The token was deleted; its card data is no longer available.');
  }
}

export class SecurityCodeExpiredError extends AppError {
  constructor() {
    super('security_code_expired', 422, 'The security code is kept for 15 minutes after the card data was stored; that time has passed.', {
      field: 'security_code',
    });
  }
}

export class SecurityCodeUnavailableError extends AppError {
  constructor() {
    super('security_code_unavailable', 422, 'No security code was collected with this token.', { field: 'security_code' });
  }
}

export class InvalidForwardBodyError extends BadRequestError {
  constructor(detail: string) {
    super(detail, 'invalid_forward_body', { field: 'body' });
  }
}

/** Field names quoted in a problem are the merchant's own keys: kept short. */
const quoted = (field: string): string => (field.length > 200 ? `${field.slice(0, 200)}…` : field);

export class PlaceholderNotAllowedError extends AppError {
  constructor(field: string, cardFields: readonly string[]) {
    const where =
      cardFields.length === 0
        ? 'This destination declares no card fields, so its body may hold no placeholder.'
        : `A placeholder may only be the whole value of one of this destination's card fields (${cardFields.join(', ')}), each with its own placeholder.`;
    super('placeholder_not_allowed', 422, `${where} The field ${quoted(field)} holds one. Nothing was sent.`, { field: quoted(field) });
  }
}

/** A catalog destination of the other mode than the merchant's API key (a test key reaching a live PSP endpoint, or the reverse). */
export class DestinationModeNotAllowedError extends AppError {
  constructor(keyMode: 'test' | 'live') {
    super(
      `destination_not_allowed_in_${keyMode}_mode`,
      403,
      keyMode === 'live'
        ? 'This destination is a test endpoint; a live API key forwards only to live endpoints.'
        : 'This destination is a live endpoint; a test API key forwards only to test endpoints.',
      { field: 'X-DESTINATION-URL' },
    );
  }
}
