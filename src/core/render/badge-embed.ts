import { escapeUTF8 as escapeHtml } from 'entities';
import type { Locale, Provider } from '../vocabulary.ts';
import { UI } from '../i18n/index.ts';
import { PROVIDER_LABELS } from '../i18n/labels.ts';
import { localizedPath } from '../site.ts';

/**
 * The snippets that embed a provider's badge elsewhere (a README, a web page), as its page offers them to copy
 * (src/components/BadgeEmbed.astro): the badge image linked to the provider's page, both by absolute URLs from
 * `{base_url}`, in Markdown and in HTML. The page linked and the alternative text are in the language of the page
 * the snippet was copied from; the badge itself is the same image in both.
 */

export interface BadgeEmbed {
  /** `[![<alt>](<image>)](<page>)` */
  markdown: string;
  /** `<a href="<page>"><img src="<image>" alt="<alt>"></a>` */
  html: string;
}

/** Markdown's link text: its brackets, backslashes and inline markers escaped, so that they read as themselves. */
const markdownText = (text: string) => text.replace(/[\\[\]*_`<>]/g, (character) => `\\${character}`);
/** A Markdown link destination: what would end it or split it (spaces, parentheses, angle brackets) encoded. */
const markdownUrl = (url: string) =>
  url.replace(/[\s()<>]/gu, (character) =>
    character === '(' ? '%28' : character === ')' ? '%29' : encodeURIComponent(character),
  );

/** The two snippets for a badge image linked to a page, with the image's alternative text. */
export const badgeEmbed = ({ pageUrl, imageUrl, alt }: { pageUrl: string; imageUrl: string; alt: string }) =>
  ({
    markdown: `[![${markdownText(alt)}](${markdownUrl(imageUrl)})](${markdownUrl(pageUrl)})`,
    html: `<a href="${escapeHtml(pageUrl)}"><img src="${escapeHtml(imageUrl)}" alt="${escapeHtml(alt)}"></a>`,
  }) satisfies BadgeEmbed;

/** A provider's badge (`/badge/<provider>.svg`) linked to its page in `locale`, "Provider A status". */
export const badgeEmbedSnippets = (baseUrl: string, provider: Provider, locale: Locale): BadgeEmbed =>
  badgeEmbed({
    pageUrl: `${baseUrl}${localizedPath(`/${provider}`, locale)}`,
    imageUrl: `${baseUrl}/badge/${provider}.svg`,
    alt: `${PROVIDER_LABELS[locale][provider]} ${UI[locale].badgeEmbed.altStatus}`,
  });
