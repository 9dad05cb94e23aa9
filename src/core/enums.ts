import { z } from 'zod';
import { BOARD_STATUSES, EVENT_KINDS, PROVIDERS } from './vocabulary.ts';

/** The enumerations as zod schemas, named for the OpenAPI document; values and labels are in vocabulary.ts. */

export * from './vocabulary.ts';
export { KIND_LABELS, PROVIDER_LABELS, STATUS_LABELS } from './i18n/labels.ts';

export const ProviderSchema = z.enum(PROVIDERS).meta({ id: 'Provider' });
export const EventKindSchema = z.enum(EVENT_KINDS).meta({ id: 'EventKind' });
export const BoardStatusSchema = z.enum(BOARD_STATUSES).meta({ id: 'BoardStatus' });
