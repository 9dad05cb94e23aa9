/** The forms every locale writes alike; each locale's own forms are in its folder (`<locale>/format.ts`). */
export { utcDay, utcMinute } from '../time-format.ts';

/** `18 %`: a probability as a whole percentage; `–` for none. */
export const percent = (probability: number | null): string =>
  probability === null ? '–' : `${Math.round(probability * 100)} %`;
