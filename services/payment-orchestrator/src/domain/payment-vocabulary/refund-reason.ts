/** Why money is given back, as the merchant states it and processors are told it. */
export type RefundReason = 'requested_by_customer' | 'duplicate' | 'fraudulent';
