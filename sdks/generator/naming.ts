/**
 * What every SDK calls each operation of the merchant API: a resource (a noun the client holds) and a method
 * on it. One table for Python (`client.payments.create_one_off`) and Go (`client.Payments.CreateOneOff`), so
 * the SDKs read alike; the names are public API of the SDKs, so a rename is a decision made here, not a side
 * effect of an operationId changed in the document. An operation missing from the table (new in the document)
 * still gets a method: the resource of its path's first segment and its operationId in snake case (and the
 * drift check asks for the SDKs to be generated again).
 */
export const OPERATION_NAMES: Record<string, readonly [resource: string, method: string]> = {
  forward: ['forwarding', 'forward'],
  createTokenImport: ['token_imports', 'create'],
  listTokenImports: ['token_imports', 'list'],
  getTokenImport: ['token_imports', 'get'],
  createWebhookEndpoint: ['webhook_endpoints', 'create'],
  listWebhookEndpoints: ['webhook_endpoints', 'list'],
  getWebhookEndpoint: ['webhook_endpoints', 'get'],
  updateWebhookEndpoint: ['webhook_endpoints', 'update'],
  deleteWebhookEndpoint: ['webhook_endpoints', 'delete'],
  rotateWebhookEndpointSecret: ['webhook_endpoints', 'rotate_secret'],
  listWebhookDeliveries: ['webhook_endpoints', 'list_deliveries'],
  getWebhookDelivery: ['webhook_endpoints', 'get_delivery'],
  replayWebhookDelivery: ['webhook_endpoints', 'replay_delivery'],
  listEvents: ['events', 'list'],
  pollEvents: ['events', 'poll'],
  getEvent: ['events', 'get'],
  createToken: ['tokens', 'create'],
  listTokens: ['tokens', 'list'],
  getToken: ['tokens', 'get'],
  deleteToken: ['tokens', 'delete'],
  cdeImport: ['tokens', 'cde_import'],
  submitCheckoutCard: ['checkout_sessions', 'submit_card'],
  confirmCheckoutStoredCard: ['checkout_sessions', 'confirm_stored_card'],
  getCheckoutSessionLogo: ['checkout_sessions', 'get_logo'],
  getCheckoutSessionStatus: ['checkout_sessions', 'get_status'],
  createOneOffPayment: ['payments', 'create_one_off'],
  createRecurringPayment: ['payments', 'create_recurring'],
  createUnscheduledPayment: ['payments', 'create_unscheduled'],
  createSubsequentRecurringPayment: ['payments', 'create_subsequent_recurring'],
  createSubsequentUnscheduledPayment: ['payments', 'create_subsequent_unscheduled'],
  capturePayment: ['payments', 'capture'],
  cancelPayment: ['payments', 'cancel'],
  getPayment: ['payments', 'get'],
  listPayments: ['payments', 'list'],
  createEarlierPayment: ['payments', 'create'],
  listPaymentTransactions: ['payments', 'list_transactions'],
  putFlowMatrix: ['flow_matrix', 'replace'],
  getFlowMatrix: ['flow_matrix', 'get'],
  explainFlowMatrix: ['flow_matrix', 'explain'],
  createFlow: ['flows', 'create'],
  listFlows: ['flows', 'list'],
  getFlow: ['flows', 'get'],
  createProcessorAccount: ['processor_accounts', 'create'],
  listProcessorAccounts: ['processor_accounts', 'list'],
  getProcessorAccount: ['processor_accounts', 'get'],
  updateProcessorAccount: ['processor_accounts', 'update'],
  deleteProcessorAccount: ['processor_accounts', 'delete'],
  receiveProcessorNotification: ['processor_notifications', 'send'],
  createCustomer: ['customers', 'create'],
  listCustomers: ['customers', 'list'],
  getCustomer: ['customers', 'get'],
  listCustomerPaymentMethods: ['customers', 'list_payment_methods'],
  getPaymentMethod: ['payment_methods', 'get'],
  revokePaymentMethod: ['payment_methods', 'revoke'],
  listDisputes: ['disputes', 'list'],
  getDispute: ['disputes', 'get'],
  listPaymentDisputes: ['disputes', 'list_for_payment'],
  openTestDispute: ['disputes', 'open_test'],
  getCheckoutSettings: ['checkout_settings', 'get'],
  updateCheckoutSettings: ['checkout_settings', 'update'],
  createRefund: ['refunds', 'create'],
  listPaymentRefunds: ['refunds', 'list_for_payment'],
  getRefund: ['refunds', 'get'],
  listRefunds: ['refunds', 'list'],
  listApiKeys: ['api_keys', 'list'],
  createDashboardKey: ['api_keys', 'create_dashboard_key'],
  revokeDashboardKey: ['api_keys', 'revoke'],
  getPaymentReport: ['reports', 'payments'],
  getWebhookDeliveryReport: ['reports', 'webhook_deliveries'],
};

export const snakeCase = (name: string): string =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();

export const pascalCase = (name: string): string =>
  snakeCase(name)
    .split('_')
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');

/** The resource and method of an operation: the table's, else derived from its path and operationId. */
export function operationName(operationId: string, path: string): readonly [string, string] {
  return OPERATION_NAMES[operationId] ?? [snakeCase(path.split('/')[1] ?? 'api'), snakeCase(operationId)];
}

/** A header parameter as an argument: `X-Test-Now` is `test_now`, `X-SERVICE-TOKEN` is `service_token`. */
export const headerArgument = (header: string): string => snakeCase(header.replace(/^x-/i, ''));
