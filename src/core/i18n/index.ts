import type { Locale } from '../vocabulary.ts';
import { en, type Translations } from './en.ts';
import { zh } from './zh.ts';

/** The service's words per locale: one file per locale beside this one, the same shape in each. */
export const TRANSLATIONS: Readonly<Record<Locale, Translations>> = { en, zh };
export type { Translations };
