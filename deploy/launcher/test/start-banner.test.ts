import { startBanner } from '../src/start-banner';

describe('the lines pnpm start prints once the service answers', () => {
  it('when PUBLIC_BASE_URL is unset, then they link the dashboard, the API docs and the quick start on localhost', () => {
    expect(startBanner('http://127.0.0.1:8080', {}).join('\n')).toBe(
      [
        "  dashboard:   http://localhost:8080/dashboard/   (sign in with a merchant's secret key, or ADMIN_API_KEY)",
        '  API docs:    http://localhost:8080/docs',
        '  quick start: http://localhost:8080/docs/guides#quick-start',
      ].join('\n'),
    );
  });

  it('when PUBLIC_BASE_URL is set, then the links use it', () => {
    expect(startBanner('http://127.0.0.1:8080', { PUBLIC_BASE_URL: 'https://vault.example.com/' })[1]).toBe('  API docs:    https://vault.example.com/docs');
  });
});
