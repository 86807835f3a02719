import { formatPrice } from './catalog.js';

describe("the shop's prices", () => {
  it("when a price is shown, then it has the API's decimals for its currency, not a division by 100", () => {
    expect(
      [formatPrice(1250, 'EUR'), formatPrice(150000, 'HUF'), formatPrice(1500, 'JPY'), formatPrice(1234, 'KWD')].map((shown) => shown.replace(/\u00a0/g, ' ')),
    ).toEqual(['€12.50', 'HUF 1,500.00', 'JP¥1,500', 'KWD 1.234']);
  });
});
