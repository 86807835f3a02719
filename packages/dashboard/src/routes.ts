// Every page of the dashboard, by role: the navigation and the router read this one list.
import type { FunctionComponent } from 'preact';
import type { SessionKind } from './api/session';
import type { PageProps } from './router';
import { ApiKeysPage } from './pages/merchant/api-keys';
import { CustomerPage } from './pages/merchant/customer';
import { CustomersPage } from './pages/merchant/customers';
import { CheckoutPage } from './pages/merchant/checkout';
import { DisputesPage } from './pages/merchant/disputes';
import { EarlyFraudWarningsPage } from './pages/merchant/early-fraud-warnings';
import { EventPage } from './pages/merchant/event';
import { EventsPage } from './pages/merchant/events';
import { FlowMatrixPage } from './pages/merchant/flow-matrix';
import { FlowsPage } from './pages/merchant/flows';
import { ImportsPage } from './pages/merchant/imports';
import { OverviewPage } from './pages/merchant/overview';
import { PaymentPage } from './pages/merchant/payment';
import { PaymentsPage } from './pages/merchant/payments';
import { ProcessorAccountsPage } from './pages/merchant/processor-accounts';
import { RefundsPage } from './pages/merchant/refunds';
import { TokensPage } from './pages/merchant/tokens';
import { WebhookEndpointPage } from './pages/merchant/webhook-endpoint';
import { WebhookEndpointsPage } from './pages/merchant/webhook-endpoints';
import { AuditPage } from './pages/operator/audit';
import { ForwardDestinationsPage } from './pages/operator/forward-destinations';
import { HealthPage } from './pages/operator/health';
import { KeyRotationPage } from './pages/operator/key-rotation';
import { MerchantPage } from './pages/operator/merchant';
import { MerchantsPage } from './pages/operator/merchants';
import { OperatorsPage } from './pages/operator/operators';

export interface Route {
  pattern: string;
  page: FunctionComponent<PageProps>;
  /** Shown in the navigation under this name; detail pages have none. */
  nav?: string;
}

export const ROUTES: Record<SessionKind, Route[]> = {
  merchant: [
    { pattern: '/', page: OverviewPage, nav: 'Overview' },
    { pattern: '/payments', page: PaymentsPage, nav: 'Payments' },
    { pattern: '/payments/:id', page: PaymentPage },
    { pattern: '/refunds', page: RefundsPage, nav: 'Refunds' },
    { pattern: '/disputes', page: DisputesPage, nav: 'Disputes' },
    { pattern: '/early-fraud-warnings', page: EarlyFraudWarningsPage, nav: 'Fraud warnings' },
    { pattern: '/customers', page: CustomersPage, nav: 'Customers' },
    { pattern: '/customers/:id', page: CustomerPage },
    { pattern: '/tokens', page: TokensPage, nav: 'Tokens' },
    { pattern: '/flows', page: FlowsPage, nav: 'Flows' },
    { pattern: '/flow-matrix', page: FlowMatrixPage, nav: 'Flow matrix' },
    { pattern: '/processor-accounts', page: ProcessorAccountsPage, nav: 'Processor accounts' },
    { pattern: '/webhook-endpoints', page: WebhookEndpointsPage, nav: 'Webhooks' },
    { pattern: '/webhook-endpoints/:id', page: WebhookEndpointPage },
    { pattern: '/events', page: EventsPage, nav: 'Events' },
    { pattern: '/events/:id', page: EventPage },
    { pattern: '/checkout', page: CheckoutPage, nav: 'Checkout' },
    { pattern: '/imports', page: ImportsPage, nav: 'Imports' },
    { pattern: '/api-keys', page: ApiKeysPage, nav: 'API keys' },
  ],
  operator: [
    { pattern: '/', page: MerchantsPage, nav: 'Merchants' },
    { pattern: '/merchants/:id', page: MerchantPage },
    { pattern: '/operators', page: OperatorsPage, nav: 'Operators' },
    { pattern: '/audit', page: AuditPage, nav: 'Audit log' },
    { pattern: '/forward-destinations', page: ForwardDestinationsPage, nav: 'Forward destinations' },
    { pattern: '/key-rotation', page: KeyRotationPage, nav: 'Key rotation' },
    { pattern: '/health', page: HealthPage, nav: 'Service health' },
  ],
};
