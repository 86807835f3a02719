import { formatAmount } from '@vaultline/node';

/** What the shop sells: one product is enough to show a payment. Prices in minor units (cents). */
export interface Product {
  id: string;
  name: string;
  description: string;
  price: number;
  currency: string;
}

export const PRODUCTS: readonly Product[] = [
  { id: 'guji-250', name: 'Ethiopia Guji, 250 g', description: 'Washed, light roast: bergamot, peach, jasmine.', price: 1250, currency: 'EUR' },
];

export const productById = (id: string): Product | undefined => PRODUCTS.find((product) => product.id === id);

/** Minor units as the shop shows them, with the API's decimals for the currency (the SDK's ISO 4217 table, not amount / 100). */
export const formatPrice = (amount: number, currency: string): string => formatAmount(amount, currency, 'en-IE');
