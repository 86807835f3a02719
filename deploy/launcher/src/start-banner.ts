/**
 * The lines `pnpm start` and `pnpm start:local` print once the service answers: where the newcomer goes
 * next. The links use PUBLIC_BASE_URL when it is set (what browsers reach), else the listening address
 * by the name `localhost` (the gateway's default PUBLIC_BASE_URL).
 */
export function startBanner(listeningUrl: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const base = (env.PUBLIC_BASE_URL ?? listeningUrl.replace('//127.0.0.1:', '//localhost:')).replace(/\/+$/, '');
  return [
    `  dashboard:   ${base}/dashboard/   (sign in with a merchant's secret key, or ADMIN_API_KEY)`,
    `  API docs:    ${base}/docs`,
    `  quick start: ${base}/docs/guides#quick-start`,
  ];
}
