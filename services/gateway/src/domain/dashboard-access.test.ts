import { dashboardKeyMay } from './dashboard-access';

describe('what a dashboard key may do', () => {
  it.each([
    ['GET', '/payments'],
    ['GET', '/payments/p1/transactions'],
    ['HEAD', '/tokens'],
    ['POST', '/payments/p1/capture'],
    ['POST', '/payments/p1/cancel'],
    ['POST', '/payments/p1/refunds'],
    ['POST', '/payments/p1/refunds/'],
    ['POST', '/webhook-endpoints/we1/deliveries/d1/replay'],
    ['POST', '/flow-matrix/explain'],
  ])('when it sends %s %s, then it may', (method, path) => {
    expect(dashboardKeyMay(method, path)).toBe(true);
  });

  it.each([
    ['POST', '/payments/one-off'],
    ['POST', '/payments'],
    ['POST', '/tokens'],
    ['DELETE', '/tokens/t1'],
    ['POST', '/forward'],
    ['POST', '/cde-import'],
    ['PUT', '/flow-matrix'],
    ['POST', '/flows'],
    ['POST', '/processor-accounts'],
    ['PATCH', '/processor-accounts/a1'],
    ['POST', '/webhook-endpoints'],
    ['POST', '/webhook-endpoints/we1/rotate-secret'],
    ['PATCH', '/settings/checkout'],
    ['POST', '/api-keys'],
    ['DELETE', '/api-keys/k1'],
    ['POST', '/payments/p1/capture/extra'],
    ['POST', '/Payments/p1/Capture'],
    ['POST', '/payments/p1/test/dispute'],
  ])('when it sends %s %s, then it may not', (method, path) => {
    expect(dashboardKeyMay(method, path)).toBe(false);
  });
});
