/**
 * `{base_url}`: Astro's `site`, set from SITE_URL when the site was built. Outside an Astro build (unit tests
 * of edge code in Node) there is no `site`; the local default stands in.
 */
export const BASE_URL: string = (import.meta.env.SITE ?? 'http://localhost:4321').replace(/\/+$/, '');
