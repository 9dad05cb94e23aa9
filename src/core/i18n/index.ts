import type { Locale } from '../vocabulary.ts';
import { en, type Translations } from './en/index.ts';
import { zh } from './zh/index.ts';

/**
 * The service's words: one folder per locale beside this one (`<locale>/index.ts`, with a file per larger
 * concept), every locale in the shape of the English (`Translations`).
 */
export const TRANSLATIONS: Readonly<Record<Locale, Translations>> = { en, zh };
export type { Translations };

/** The website's words per locale, as the pages read them. */
export const UI: Readonly<Record<Locale, Translations['ui']>> = { en: en.ui, zh: zh.ui };
export type UiText = Translations['ui'];
