/** The port `npm start` serves on, and `{base_url}`, the address every published link starts with. */
export const servePort = (): number => Number(process.env.PORT ?? 4321);

/** SITE_URL as set; an empty value counts as unset (a GitHub variable that does not exist arrives as ''). */
export const configuredSiteUrl = (): string | undefined => process.env.SITE_URL?.trim() || undefined;

export const siteUrl = (): string => (configuredSiteUrl() ?? `http://localhost:${servePort()}`).replace(/\/+$/, '');

/**
 * A build in CI (`CI=true`, set by GitHub Actions and most CI services) is a build that may be deployed:
 * there, a missing SITE_URL is an error, never a site whose every link points to localhost. Local builds,
 * `npm start` and `npm run dev` keep the localhost default.
 */
export function missingSiteUrlProblem(env: Record<string, string | undefined> = process.env): string | null {
  if (env.CI !== 'true' || env.SITE_URL?.trim()) return null;
  return 'SITE_URL is not set. A build in CI (CI=true) may be deployed, and every published link starts with SITE_URL: set it to the public address, e.g. SITE_URL=https://departures.example.org (in GitHub: Settings → Secrets and variables → Actions → Variables → SITE_URL).';
}
