import type { Router } from 'express';
import { SCOPES } from '@vaultline/auth';
import { reportPeriod, type Clock } from '@vaultline/core';
import { requireScope, scopeOfRequest, testClockOf } from '@vaultline/http';
import type { ReportPayments } from '../domain/reports/payment-report';

/** GET /reports/payments?from=&to= (YYYY-MM-DD, UTC days; 30 days up to today by default; the test clock's today with X-Test-Now). */
export function reportRoutes(router: Router, deps: { reportPayments: ReportPayments; clock: Clock }): void {
  router.get('/reports/payments', requireScope(SCOPES.merchant), async (req, res) => {
    const period = reportPeriod({ from: req.query.from, to: req.query.to }, testClockOf(req) ?? deps.clock.now());
    res.json(await deps.reportPayments(scopeOfRequest(req), period));
  });
}
