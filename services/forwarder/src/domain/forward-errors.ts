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
