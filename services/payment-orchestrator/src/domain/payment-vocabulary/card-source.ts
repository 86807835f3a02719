/** What a payment shows of the card: display data only, never the number or the security code. */
export interface CardSource {
  type: 'card';
  cardholder_name: string | null;
  expiry_month: number;
  expiry_year: number;
  masked_account_number: string;
  pan_type: 'FPAN';
}
