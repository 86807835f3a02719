import type { Router } from 'express';
import { SCOPES } from '@vaultline/auth';
import { reportPeriod, type Clock } from '@vaultline/core';
import { requireScope, scopeOfRequest } from '@vaultline/http';
import type { ReportDeliveries } from '../domain/delivery-report';

/** GET /reports/webhook-deliveries?from=&to= (YYYY-MM-DD, UTC days; 30 days up to today by default). */
export function deliveryReportRoutes(router: Router, deps: { reportDeliveries: ReportDeliveries; clock: Clock }): void {
  router.get('/reports/webhook-deliveries', requireScope(SCOPES.merchant), async (req, res) => {
    const period = reportPeriod({ from: req.query.from, to: req.query.to }, deps.clock.now());
    res.json(await deps.reportDeliveries(scopeOfRequest(req), period));
  });
}
