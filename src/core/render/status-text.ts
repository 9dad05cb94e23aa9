import type { ProviderStatus } from '../schemas.ts';

/**
 * GET /api/status.txt (decisions.md, "A status line for terminals and status bars"): one line per provider, in
 * the order given, of four fields separated by a tab: the provider id, the status word, the days since the last
 * reset to one decimal, and the next estimate. A null is `-`, so that every line has its four fields and
 * `cut -f2` or a shell's `read` takes the one it wants.
 */

const NONE = '-';

export const statusLine = ({ provider, status, daysSince, nextEstimate }: ProviderStatus): string =>
  `${[provider, status, daysSince?.toFixed(1) ?? NONE, nextEstimate ?? NONE].join('\t')}\n`;

export const renderStatusText = (statuses: readonly ProviderStatus[]): string => statuses.map(statusLine).join('');
