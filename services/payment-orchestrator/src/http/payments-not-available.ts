import type express from 'express';
import { AppError } from '@vaultline/core';

/**
 * Payment orchestration (processors, flows, the flow matrix, the /payments interfaces) is not built
 * yet. Until it is, every /payments call answers 501 with a problem that says so, rather than a
 * misleading 404 or a fake payment.
 */
export class PaymentsNotAvailableError extends AppError {
  constructor() {
    super('payments_not_available', 501, 'Payment orchestration is not available in this release of the service.');
  }
}

export function paymentsNotAvailableRoutes(router: express.Router): void {
  router.all(/^\/payments(\/.*)?$/, () => {
    throw new PaymentsNotAvailableError();
  });
}
