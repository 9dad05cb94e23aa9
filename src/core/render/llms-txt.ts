import { MEDIAN_BASIS_RESETS } from '../cadence.ts';
import { endpointListings } from '../api/endpoints.ts';
import { ENGLISH_LANGUAGE_NAMES } from '../i18n/filled-words.ts';
import { PREFIXED_LANGUAGES } from '../languages.ts';
import { SERVICE_NAME } from '../site.ts';

/** `/llms.txt`: where an agent finds the board in the forms made for it; the endpoints come from the route table. */
export const renderLlmsTxt = (baseUrl: string): string =>
  [
    `# ${SERVICE_NAME}`,
    '',
    `> Official usage-limit reset announcements of three AI coding-tool providers (provider_a, provider_b, provider_c), each linked to its original post, with a status per provider and a cadence estimate of the next reset. The estimate is last reset + median gap of the last ${MEDIAN_BASIS_RESETS} resets: never a vendor schedule. Free, read-only, no key.`,
    '',
    '## Read the board',
    '',
    `- [The board in Markdown, English](${baseUrl}/index.md): status, last reset and estimate per provider, the latest announcements, the endpoints`,
    ...PREFIXED_LANGUAGES.map(
      (language) =>
        `- [The board in Markdown, ${ENGLISH_LANGUAGE_NAMES[language.code]}](${baseUrl}/${language.prefix}/index.md)`,
    ),
    '',
    '## Endpoints',
    '',
    ...endpointListings('en').map(
      (endpoint) =>
        `- [${endpoint.title}](${baseUrl}${endpoint.path}): ${[endpoint.path, ...endpoint.aliases].map((path) => `\`${endpoint.method} ${path}\``).join(', ')}`,
    ),
    '',
    '## Terms',
    '',
    '- Data as is, without warranty; not affiliated with the providers. Link back and keep each event’s sourceUrl when republishing.',
    '',
  ].join('\n');
