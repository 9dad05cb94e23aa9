import { z } from 'zod';
import {
  OUTBOUND_ADDRESS_MAX_LENGTH,
  OUTBOUND_PROBLEM_MESSAGES,
  type OutboundRules,
  outboundAddress,
  parseAddress,
} from './address.ts';

/**
 * The outbound-address policy (address.ts) as the write bodies' zod fields: every channel's address field is
 * this schema, so a body is refused with the policy's words and parses into the address's stored form.
 */

/** An address the service will send to: refused with the rule it breaks, else its stored form. */
export const outboundAddressSchema = (rules: OutboundRules) =>
  z
    .string()
    .max(OUTBOUND_ADDRESS_MAX_LENGTH)
    .superRefine((text, context) => {
      const address = outboundAddress(text, rules);
      if (!address.ok) context.addIssue({ code: 'custom', message: OUTBOUND_PROBLEM_MESSAGES[address.problem] });
    })
    .overwrite((text) => {
      const address = outboundAddress(text, rules);
      return address.ok ? address.url : text;
    });

/**
 * An address to forget: any text (an unknown one is no error), in the stored form when it parses, so that
 * every spelling of a stored address finds its row.
 */
export const addressLookupSchema = z
  .string()
  .min(1)
  .max(OUTBOUND_ADDRESS_MAX_LENGTH)
  .overwrite((text) => parseAddress(text)?.href ?? text);
