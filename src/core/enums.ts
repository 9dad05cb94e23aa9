import { z } from 'zod';
import { BOARD_STATUSES, EVENT_KINDS, PROVIDERS } from './vocabulary.ts';

/**
 * The enumerations as zod schemas, named for the OpenAPI document; the values are in vocabulary.ts, their
 * labels with the other words in src/core/i18n (labels.ts).
 */

export * from './vocabulary.ts';

export const ProviderSchema = z.enum(PROVIDERS).meta({ id: 'Provider' });
export const EventKindSchema = z.enum(EVENT_KINDS).meta({ id: 'EventKind' });
export const BoardStatusSchema = z.enum(BOARD_STATUSES).meta({ id: 'BoardStatus' });
