import { z } from 'zod';
import { lazySchema } from '../lazy-schema.ts';
import { decimalIntegerParam, parseQuery, type QueryResult } from '../api/query.ts';
import { OUTBOUND_ADDRESS_MAX_LENGTH, type OutboundRules } from '../outbound/address.ts';
import { outboundAddressSchema } from '../outbound/address-schema.ts';

/**
 * `POST /websub`'s form (decisions.md, "WebSub"; WebSub §5.1): `hub.mode`, `hub.topic`, `hub.callback`, and
 * optionally `hub.lease_seconds` and `hub.secret`. Parameters the hub does not know are ignored (§5.1: hubs MUST
 * ignore them); a known one given twice is refused, as in a query (parseQuery).
 */

/** The largest form read (a bigger one is a bad body): the longest callback and topic with room. */
export const WEBSUB_BODY_MAX_BYTES = 8192;
/** Decided: 10 days unless asked, 30 days at most. */
export const LEASE_SECONDS = { default: 864_000, max: 2_592_000 } as const;
/** Decided: at most 200 bytes (WebSub §5.1: "MUST be less than 200 bytes"; the decision allows exactly 200). */
export const SECRET_MAX_BYTES = 200;
export const WEBSUB_MODES = ['subscribe', 'unsubscribe'] as const;
export type WebSubMode = (typeof WEBSUB_MODES)[number];

const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

/**
 * The form under `rules` (the loopback test receiver's setting), with `findTopic` deciding which topics exist (the
 * feeds' self addresses at the deployment's base URL, src/core/websub/topics.ts): a topic parses into its
 * canonical address, the callback into its stored form (src/core/outbound).
 */
export const webSubRequestSchema = (rules: OutboundRules, findTopic: (text: string) => string | undefined) =>
  z.object({
    'hub.mode': z.enum(WEBSUB_MODES).describe('`subscribe`, or `unsubscribe`'),
    'hub.topic': z
      .string()
      .max(OUTBOUND_ADDRESS_MAX_LENGTH)
      .superRefine((text, context) => {
        if (findTopic(text) === undefined)
          context.addIssue({
            code: 'custom',
            message:
              'must be the address of one of the feeds, as it names itself (rel="self"): /feed.xml, /feed.atom or /feed.json, optionally with ?provider=',
          });
      })
      .overwrite((text) => findTopic(text) ?? text)
      .describe('the feed’s own address, as its `rel="self"` link and `Link` header give it'),
    'hub.callback': outboundAddressSchema(rules).describe(
      'where the hub verifies the intent (a GET) and delivers the feed (a POST): a public https address',
    ),
    'hub.lease_seconds': decimalIntegerParam(1, LEASE_SECONDS.max)
      .default(LEASE_SECONDS.default)
      .describe(`seconds the subscription lasts once verified: default ${LEASE_SECONDS.default}`),
    'hub.secret': z
      .string()
      .refine((text) => utf8Bytes(text) >= 1 && utf8Bytes(text) <= SECRET_MAX_BYTES, {
        message: `must be 1 to ${SECRET_MAX_BYTES} bytes`,
      })
      .optional()
      .describe('the key of the `X-Hub-Signature` HMAC-SHA256 over each delivered body; without it, none is sent'),
  });
export type WebSubRequest = z.infer<ReturnType<typeof webSubRequestSchema>>;

/**
 * The form as the route table and the OpenAPI document describe it: the default address rules (no loopback
 * receiver), any topic text (the handler checks it against the deployment's feeds).
 */
export const WebSubRequestFormSchema = lazySchema(() =>
  webSubRequestSchema({ allowLoopbackReceiver: false }, (text) => text),
);

/**
 * A form body (`application/x-www-form-urlencoded`, decoded as the URL standard decodes one) as a request: every
 * problem at once, a known field given twice refused, unknown ones ignored.
 */
export const parseWebSubForm = (
  body: string,
  rules: OutboundRules,
  findTopic: (text: string) => string | undefined,
): QueryResult<WebSubRequest> => parseQuery(webSubRequestSchema(rules, findTopic), new URLSearchParams(body));
