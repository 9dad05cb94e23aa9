/** `{base_url}`: Astro's `site`, set from SITE_URL when the site was built. */
export const BASE_URL: string = import.meta.env.SITE.replace(/\/+$/, '');
