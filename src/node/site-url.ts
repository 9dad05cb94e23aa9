/** The port `npm start` serves on, and `{base_url}`, the address every published link starts with. */
export const servePort = (): number => Number(process.env.PORT ?? 4321);

export const siteUrl = (): string => (process.env.SITE_URL ?? `http://localhost:${servePort()}`).replace(/\/+$/, '');
