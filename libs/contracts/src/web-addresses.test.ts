import { allowedOriginOf, allowedOriginsOf, isAllowedReturnUrl, MAX_ALLOWED_ORIGINS } from './web-addresses';

describe('web addresses the hosted checkout may use', () => {
  it.each(['https://shop.example/return?x=1', 'http://localhost:3000/done', 'http://127.0.0.1/done', 'http://[::1]:8080/done', 'https://shop_1.example/'])(
    'when the return URL is %s, then it is allowed',
    (url) => expect(isAllowedReturnUrl(url)).toBe(true),
  );

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'data:text/html,hi',
    'http://shop.example/',
    'ftp://shop.example/',
    '/relative',
    'https://user:pw@shop.example/',
    'https://a;b.example/',
  ])('when the return URL is %s, then it is refused', (url) => expect(isAllowedReturnUrl(url)).toBe(false));

  it('when an origin is written with upper case, a default port or a trailing slash, then it reads as its serialized origin', () => {
    expect(allowedOriginOf('https://Shop.Example:443/')).toBe('https://shop.example');
    expect(allowedOriginOf('http://localhost:3000')).toBe('http://localhost:3000');
  });

  it.each([
    '*',
    "'none'",
    'null',
    'https://*.shop.example',
    'https://a,b.example',
    'https://shop.example/pay',
    'https://shop.example?',
    'https://shop.example#',
    'http://shop.example',
    'javascript:alert(1)',
  ])('when %s is offered as an origin, then it is not one', (value) => expect(allowedOriginOf(value)).toBeNull());

  it('when a list is filtered, then bad entries and repeats go and at most the maximum stay', () => {
    expect(allowedOriginsOf(['*', 'https://a.example', 'https://A.example/', 'http://localhost:1'])).toEqual(['https://a.example', 'http://localhost:1']);
    expect(allowedOriginsOf(Array.from({ length: 20 }, (_, i) => `https://s${i}.example`))).toHaveLength(MAX_ALLOWED_ORIGINS);
  });
});
