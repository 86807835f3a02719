// The API's resources as the SDK's generated types name them.
import type { AdminComponents, MerchantComponents } from '@vaultline/node';

type MerchantSchema = MerchantComponents['schemas'];
type AdminSchema = AdminComponents['schemas'];

export type Payment = MerchantSchema['AnyPayment'];
export type Transaction = MerchantSchema['ProcessorTransaction'];
export type Refund = MerchantSchema['Refund'];
export type Dispute = MerchantSchema['Dispute'];
export type DisputeEvidenceInput = MerchantSchema['DisputeEvidenceInput'];
export type EarlyFraudWarning = MerchantSchema['EarlyFraudWarning'];
export type Customer = MerchantSchema['Customer'];
export type PaymentMethod = MerchantSchema['EarlierPaymentMethod'];
export type Token = MerchantSchema['Token'];
export type Flow = MerchantSchema['Flow'];
export type FlowMatrix = MerchantSchema['FlowMatrix'];
export type FlowRule = MerchantSchema['FlowRule'];
export type ExplainRequest = MerchantSchema['FlowMatrixExplainRequest'];
export type ProcessorAccount = MerchantSchema['ProcessorAccount'];
export type ProcessorAccountInput = MerchantSchema['ProcessorAccountInput'];
export type Processor = MerchantSchema['Processor'];
export type WebhookEndpoint = MerchantSchema['WebhookEndpoint'];
/** A type an endpoint subscribes to (the event types the dashboard reads from /openapi.json are these). */
export type WebhookEventType = NonNullable<MerchantSchema['CreateWebhookEndpointRequest']['events']>[number];
export type WebhookDelivery = MerchantSchema['WebhookDelivery'];
export type TokenImport = MerchantSchema['TokenImport'];
export type MerchantEvent = MerchantSchema['Event'];

export type Merchant = AdminSchema['Merchant'];
export type ApiKey = AdminSchema['ApiKey'];
export type Operator = AdminSchema['Operator'];
export type AuditEntry = AdminSchema['AdminAuditEntry'];
export type ForwardDestination = AdminSchema['ForwardDestination'];
export type KeyRotation = AdminSchema['KeyRotation'];
export type KeyStatus = AdminSchema['KeyStatus'];
export type ServiceHealth = AdminSchema['ServiceHealth'];
export type CheckoutSettings = MerchantSchema['CheckoutSettings'];
