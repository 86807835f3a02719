import { hrefOf, matchPath } from './paths';

describe('the dashboard routes', () => {
  it('when a path matches a pattern, then its named parts are decoded; another path does not match', () => {
    expect(matchPath('/payments/:id', '/payments/pay%201')).toEqual({ id: 'pay 1' });
    expect(matchPath('/payments', '/payments')).toEqual({});
    expect(matchPath('/payments/:id', '/payments')).toBeNull();
    expect(matchPath('/payments/:id', '/payments/')).toBeNull();
    expect(matchPath('/refunds', '/payments')).toBeNull();
  });

  it('when a page link is made, then empty filters are left out of its query', () => {
    expect(hrefOf('/payments', { status: 'failed', reference: '', customer_id: undefined })).toBe('#/payments?status=failed');
    expect(hrefOf('/payments')).toBe('#/payments');
  });
});
