import type { OpenApiFragment } from '../openapi-fragment';
import { commonFragment } from './common';
import { adminFragment } from './admin';
import { adminOpsFragment } from './admin-ops';
import { forwardFragment } from './forward';
import { importsFragment } from './imports';
import { webhooksFragment } from './webhooks';
import { tokensFragment } from './tokens';
import { paymentsFragment } from './payments';
import { processorAccountsFragment } from './processor-accounts';
import { earlierPaymentsFragment } from './earlier-payments';
import { disputesFragment } from './disputes';
import { checkoutSettingsFragment } from './checkout-settings';
import { afterSaleFragment } from './after-sale';
import { reportsFragment } from './reports';
import { routingFragment } from './routing';

/**
 * Every area of the merchant API document. To add an area (tokens, forward, webhooks, imports…):
 *   1. create `fragments/<area>.ts` exporting `export const <area>Fragment: OpenApiFragment = { tags, paths, components }`
 *      (helpers in ../openapi-fragment: schemaRef, jsonResponse, problemResponse, listOf, commonErrorResponses,
 *      pageParameters; the Problem schema, the error responses and the page parameters live in common.ts);
 *   2. import it here and append it to this array. Nothing else: a duplicate path+method or component
 *      name fails the build of the document (and its test).
 */
export const fragments: OpenApiFragment[] = [
  commonFragment,
  adminFragment,
  adminOpsFragment,
  forwardFragment,
  importsFragment,
  webhooksFragment,
  tokensFragment,
  paymentsFragment,
  processorAccountsFragment,
  earlierPaymentsFragment,
  disputesFragment,
  checkoutSettingsFragment,
  afterSaleFragment,
  reportsFragment,
  routingFragment,
];
