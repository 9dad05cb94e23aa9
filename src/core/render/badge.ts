import { escapeUTF8 as escapeXml } from 'entities';
import type { ProviderStatus } from '../schemas.ts';
import type { BoardStatus } from '../vocabulary.ts';
import { PROVIDER_LABELS, STATUS_LABELS } from '../i18n/labels.ts';

/** The embeddable status badge (shields-like SVG) and the shields.io endpoint JSON, from one description. */

const STATUS_COLOURS: Record<BoardStatus, string> = {
  reset_now: '1a7f37',
  banked: '0b57a4',
  tease: '8250df',
  waiting: '57606a',
  overdue: 'b35900',
  no_data: '6e7781',
};

export interface BadgeContent {
  label: string;
  message: string;
  colour: string;
}

export const badgeContent = (row: ProviderStatus): BadgeContent => ({
  label: PROVIDER_LABELS.en[row.provider],
  message: STATUS_LABELS.en[row.status].toLowerCase(),
  colour: STATUS_COLOURS[row.status],
});

/** https://shields.io/badges/endpoint-badge */
export const renderShieldsEndpoint = ({ label, message, colour }: BadgeContent) => ({
  schemaVersion: 1,
  label,
  message,
  color: colour,
  cacheSeconds: 60,
});

// Verdana 11px averages about 7 px a character; the badge only needs to be roomy enough, not exact.
const textWidth = (text: string) => Math.round([...text].length * 7 + 10);

/** The badge's size in CSS px, as its `<svg>` says and as a page embedding it should say (no layout shift). */
export const badgeSize = ({ label, message }: BadgeContent) => ({
  width: textWidth(label) + textWidth(message),
  height: BADGE_HEIGHT,
});
const BADGE_HEIGHT = 20;

export function renderBadgeSvg(content: BadgeContent): string {
  const { label, message, colour } = content;
  const left = textWidth(label);
  const right = textWidth(message);
  const { width } = badgeSize(content);
  const title = escapeXml(`${label}: ${message}`);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img" aria-label="${title}">`,
    `<title>${title}</title>`,
    `<rect width="${left}" height="20" fill="#444d56"/>`,
    `<rect x="${left}" width="${right}" height="20" fill="#${colour}"/>`,
    `<g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11" text-anchor="middle">`,
    `<text x="${left / 2}" y="14">${escapeXml(label)}</text>`,
    `<text x="${left + right / 2}" y="14">${escapeXml(message)}</text>`,
    `</g></svg>`,
  ].join('');
}
