import type { Router } from 'express';
import { z } from 'zod';
import { SCOPES } from '@vaultline/auth';
import { parseInput, requireScope, scopeOfRequest } from '@vaultline/http';
import { AMOUNT_BANDS } from '../domain/routing/segment';
import type { GetRoutingStats } from '../domain/routing/query-routing-stats';
import { currencyCode, filtersOf } from './payment.schemas';

export interface RoutingUseCases {
  getRoutingStats: GetRoutingStats;
}

export const ROUTING_STATS_FILTERS = ['processor', 'scheme', 'country', 'currency_code', 'amount_band', 'group_by'] as const;

const statsQuery = z.strictObject({
  processor: z.string().min(1).max(64).optional(),
  scheme: z.string().min(1).max(32).optional(),
  country: z
    .string()
    .regex(/^([A-Za-z]{2}|unknown)$/, { message: 'country is an ISO 3166-1 alpha-2 code, or unknown.' })
    .optional(),
  currency_code: currencyCode.optional(),
  amount_band: z.enum(AMOUNT_BANDS).optional(),
  group_by: z.enum(['segment', 'processor']).default('segment'),
});

/** The authorization outcomes success-rate routing compares, as it reads them now. */
export function routingRoutes(router: Router, useCases: RoutingUseCases): void {
  const merchant = requireScope(SCOPES.merchant);

  router.get('/routing/stats', merchant, async (req, res) => {
    const query = parseInput(statsQuery, filtersOf(req.query, ROUTING_STATS_FILTERS));
    const scope = scopeOfRequest(req);
    const report = await useCases.getRoutingStats(scope, query);
    res.json({
      object: 'routing_stats',
      livemode: scope.mode === 'live',
      window_seconds: Math.round(report.window_ms / 1000),
      since: report.since,
      until: report.until,
      group_by: query.group_by,
      data: report.lines.map((line) => ({
        processor: line.processor,
        ...(line.segment ? { segment: line.segment } : {}),
        attempts: line.attempts,
        approved: line.approved,
        declined: line.declined,
        errors: line.errors,
        authorization_rate: line.authorization_rate,
        recent_authorization_rate: line.recent_authorization_rate,
        decisions: line.decisions,
      })),
    });
  });
}
