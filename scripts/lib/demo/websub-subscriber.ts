import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ReceiverSwitch, switchable } from './switchable-receiver.ts';
import { scaled } from '../load-scaled.ts';

/**
 * A WebSub subscriber, written from the W3C Recommendation (https://www.w3.org/TR/websub/), not from the hub's
 * code: a small HTTP server on loopback that is its callbacks.
 *
 * - Discovery (§4): the hub and the topic from the feed's `Link` header fields (RFC 8288), rel="hub" and rel="self".
 * - Subscribing (§5.1): a form POST to the hub with hub.callback, hub.mode, hub.topic, optionally hub.lease_seconds
 *   and hub.secret. Each callback URL is unique to one subscription (§5.1 recommends it), here one path each.
 * - Verification of intent (§5.3, §5.3.1): a GET carrying hub.mode, hub.topic, hub.challenge and hub.lease_seconds
 *   is confirmed (200, the challenge as the body) only when this subscriber has a pending request of that mode for
 *   that topic on that callback; otherwise 404, as §5.3.1 says for a topic it did not ask for.
 * - Content distribution (§7, §8): each POST is recorded with its headers and body. With a secret, the
 *   `X-Hub-Signature: method=signature` header is checked with node:crypto's HMAC of the raw body; a delivery whose
 *   signature is missing or wrong is still acknowledged 2xx (§8) but recorded as invalid.
 */

export interface Verification {
  path: string;
  mode: string | null;
  topic: string | null;
  challenge: string | null;
  leaseSeconds: string | null;
  /** Whether this subscriber confirmed it. */
  confirmed: boolean;
}

export interface Delivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  status: number;
  /** §8: `valid` when the signature is the HMAC of the body with the subscription's secret. */
  signature: 'valid' | 'invalid' | 'absent' | 'unexpected';
  /** When it arrived (`Date.now()`). */
  at: number;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
}

interface Intent {
  mode: 'subscribe' | 'unsubscribe';
  topic: string;
}

export interface WebSubSubscriber {
  origin: string;
  /** Puts the callback's server down for real, and up again (switchable-receiver.ts). */
  power: ReceiverSwitch;
  verifications: Verification[];
  deliveries: Delivery[];
  /** The callback's answers to the next deliveries to `path`, one each (200 when none is set). */
  answerNext(path: string, ...answers: Answer[]): void;
  /**
   * Remembers that this subscriber wants `mode` for `topic` on the callback `origin + path` (what it does before
   * sending the request), so that the hub's verification of it is confirmed.
   */
  intend(mode: 'subscribe' | 'unsubscribe', topic: string, path: string, options?: { secret?: string }): void;
  /** Sends a subscription request (§5.1) for `topic` with the callback `origin + path`; the hub's response. */
  request(
    hub: string,
    mode: 'subscribe' | 'unsubscribe',
    topic: string,
    path: string,
    options?: { secret?: string; leaseSeconds?: number; clientIp?: string },
  ): Promise<Response>;
  /** The subscriber's active subscription on `path` (after a confirmed subscribe and before an unsubscribe). */
  active(path: string): { topic: string; leaseSeconds: number; secret: string | undefined } | undefined;
  /** Resolves with `what()` once it is defined; rejects after `timeoutMs` scaled by the machine's load. */
  waitFor<T>(what: () => T | undefined, description: string, timeoutMs?: number): Promise<T>;
  /**
   * Forgets the verifications and deliveries recorded so far, so that a file's tests share one subscriber (its
   * intents, subscriptions and the answers set stay).
   */
  forget(): void;
  close(): Promise<void>;
}

/** RFC 8288 `Link` header fields: each `<target>` with its `rel` values (quoted or not, space-separated). */
export function parseLinkHeader(value: string | null): { target: string; rels: string[] }[] {
  if (value === null) return [];
  const links: { target: string; rels: string[] }[] = [];
  for (const match of value.matchAll(/<([^>]*)>((?:\s*;\s*[^;,]+)*)/g)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(match[2] ?? '');
    links.push({ target: match[1]!, rels: (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/).filter(Boolean) });
  }
  return links;
}

/** §4 discovery from a feed's answer: its hub(s) and its self URL from the Link headers. */
export async function discover(feedUrl: string): Promise<{ hubs: string[]; self: string; response: Response }> {
  const response = await fetch(feedUrl);
  const links = parseLinkHeader(response.headers.get('link'));
  const hubs = links.filter((link) => link.rels.includes('hub')).map((link) => link.target);
  const selves = links.filter((link) => link.rels.includes('self')).map((link) => link.target);
  if (hubs.length === 0 || selves.length !== 1) throw new Error(`no WebSub discovery in ${feedUrl}'s Link header`);
  return { hubs, self: selves[0]!, response };
}

function signatureVerdict(header: string | undefined, secret: string | undefined, body: Buffer): Delivery['signature'] {
  if (secret === undefined) return header === undefined ? 'absent' : 'unexpected';
  if (header === undefined) return 'absent';
  const [method, signature] = header.split('=', 2);
  if (method === undefined || signature === undefined || !['sha1', 'sha256', 'sha384', 'sha512'].includes(method))
    return 'invalid';
  const expected = createHmac(method, secret).update(body).digest();
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected) ? 'valid' : 'invalid';
}

export async function startWebSubSubscriber(): Promise<WebSubSubscriber> {
  const verifications: Verification[] = [];
  const deliveries: Delivery[] = [];
  const answers = new Map<string, Answer[]>();
  /** Requests sent and not yet verified, per callback path (one subscription per callback). */
  const pending = new Map<string, Intent & { secret: string | undefined }>();
  const subscriptions = new Map<string, { topic: string; leaseSeconds: number; secret: string | undefined }>();
  /** The secret of each callback, kept after an unsubscribe too: a late delivery is still checked. */
  const secrets = new Map<string, string | undefined>();

  const intend: WebSubSubscriber['intend'] = (mode, topic, path, options = {}) => {
    pending.set(path, { mode, topic, secret: options.secret });
    if (mode === 'subscribe') secrets.set(path, options.secret);
  };

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://callback.invalid');
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = url.pathname;
      if (request.method === 'GET') {
        const query = url.searchParams;
        const verification: Verification = {
          path,
          mode: query.get('hub.mode'),
          topic: query.get('hub.topic'),
          challenge: query.get('hub.challenge'),
          leaseSeconds: query.get('hub.lease_seconds'),
          confirmed: false,
        };
        const intent = pending.get(path);
        const lease = Number(verification.leaseSeconds);
        const agrees =
          intent !== undefined &&
          intent.mode === verification.mode &&
          intent.topic === verification.topic &&
          verification.challenge !== null &&
          (intent.mode === 'unsubscribe' || (Number.isInteger(lease) && lease > 0));
        verifications.push({ ...verification, confirmed: agrees });
        if (!agrees) {
          response.writeHead(404).end();
          return;
        }
        pending.delete(path);
        if (intent.mode === 'subscribe')
          subscriptions.set(path, { topic: intent.topic, leaseSeconds: lease, secret: intent.secret });
        else subscriptions.delete(path);
        response.writeHead(200, { 'Content-Type': 'text/plain' }).end(verification.challenge);
        return;
      }
      if (request.method === 'POST') {
        const body = Buffer.concat(chunks);
        const answer = answers.get(path)?.shift() ?? { status: 200 };
        const header = request.headers['x-hub-signature'];
        deliveries.push({
          path,
          headers: request.headers,
          body,
          status: answer.status,
          signature: signatureVerdict(typeof header === 'string' ? header : undefined, secrets.get(path), body),
          at: Date.now(),
        });
        response.writeHead(answer.status, answer.headers ?? {}).end();
        return;
      }
      response.writeHead(405).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const power = switchable(server);

  return {
    origin,
    power,
    verifications,
    deliveries,
    answerNext: (path, ...list) => answers.set(path, [...(answers.get(path) ?? []), ...list]),
    intend,
    async request(hub, mode, topic, path, options = {}) {
      intend(mode, topic, path, options);
      const form = new URLSearchParams({ 'hub.callback': `${origin}${path}`, 'hub.mode': mode, 'hub.topic': topic });
      if (options.leaseSeconds !== undefined) form.set('hub.lease_seconds', String(options.leaseSeconds));
      if (options.secret !== undefined) form.set('hub.secret', options.secret);
      return fetch(hub, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          ...(options.clientIp === undefined ? {} : { 'CF-Connecting-IP': options.clientIp }),
        },
        body: form.toString(),
      });
    },
    active: (path) => subscriptions.get(path),
    async waitFor(what, description, timeoutMs = 30_000) {
      // A hang guard, scaled by the machine's load (scripts/lib/load-scaled.ts): a delivery on a busy machine is
      // waited for, not raced.
      const deadline = Date.now() + scaled(timeoutMs);
      for (;;) {
        const found = what();
        if (found !== undefined) return found;
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${description}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    forget: () => {
      verifications.length = 0;
      deliveries.length = 0;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
