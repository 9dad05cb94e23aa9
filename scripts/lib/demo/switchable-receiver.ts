import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Puts a test's `node:http` receiver (recording-receiver.ts, websub-subscriber.ts, any listening server) "down" for
 * real, as a receiver's outage looks to the worker that delivers to it:
 *
 * - `answerAll`, `unavailable`, `rateLimited`: every request (or every request to the given paths) is answered with
 *   the chosen status and headers, without reaching the receiver's own handler (so it records nothing); the
 *   request's body is read first. These are recorded in `turnedAway`.
 * - `refuseConnections`: the server stops listening and every open connection (the worker's keep-alive ones too)
 *   is destroyed, so the worker's `fetch` rejects at once (wrangler 4.164's workerd: an `Error` with the message
 *   `Network connection lost.`, on a pooled connection and a new one alike). `up()` listens again on the same host
 *   and port, which the receiver's origin names (another process could take the port meanwhile: unlikely, not
 *   impossible).
 *
 * `up()` ends either. The switch takes over the server's `request` listeners when it is made; listeners added later
 * are not switched.
 */

export interface DownAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface TurnedAway {
  method: string;
  path: string;
  /** What it was answered. */
  status: number;
  /** When it arrived (ms since the epoch, the receiver's clock). */
  at: number;
}

export interface ReceiverSwitch {
  readonly state: 'up' | 'answering' | 'holding' | 'refusing';
  /** The requests held (read whole, not answered yet) while holding. */
  readonly held: readonly { path: string; at: number }[];
  /**
   * Holds every request unanswered (a receiver that takes its time) until `releaseHeld`: the worker's send is then
   * in flight for as long as the test wants, e.g. while it makes another fault.
   */
  holdAll(): void;
  /** Answers every held request with `answer` and switches to answering the next ones with it too. */
  releaseHeld(answer: DownAnswer): void;
  /** The requests the switch answered itself, while answering. */
  readonly turnedAway: TurnedAway[];
  /** Answers every request (or those to `paths`, exact `request.url`s) with `answer`, until `up()`. */
  answerAll(answer: DownAnswer, options?: { paths?: readonly string[] }): void;
  /** `503 Service Unavailable`, with `Retry-After` (seconds) when given. */
  unavailable(retryAfterSeconds?: number, options?: { paths?: readonly string[] }): void;
  /** `429 Too Many Requests` with `Retry-After` (seconds). */
  rateLimited(retryAfterSeconds: number, options?: { paths?: readonly string[] }): void;
  /** Closes the listening socket and every open connection: connections are refused until `up()`. */
  refuseConnections(): Promise<void>;
  /** Back to the receiver's own handler, listening again on the same port if it was closed. */
  up(): Promise<void>;
}

/** Makes the listening `server` switchable (see above). */
export function switchable(server: Server): ReceiverSwitch {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('switchable: the server must be listening');
  const { port, address: host } = address as AddressInfo;
  const handlers = server.listeners('request') as ((request: IncomingMessage, response: ServerResponse) => void)[];
  server.removeAllListeners('request');

  let state: ReceiverSwitch['state'] = 'up';
  let down: { answer: DownAnswer; paths: readonly string[] | undefined } | undefined;
  const turnedAway: TurnedAway[] = [];
  const held: { path: string; at: number; answer(answer: DownAnswer): void }[] = [];

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const path = request.url ?? '/';
    if (state === 'holding') {
      request.resume();
      request.on('end', () =>
        held.push({
          path,
          at: Date.now(),
          answer: (answer) => {
            turnedAway.push({ method: request.method ?? 'GET', path, status: answer.status, at: Date.now() });
            response.writeHead(answer.status, answer.headers ?? {}).end(answer.body);
          },
        }),
      );
      return;
    }
    if (down === undefined || (down.paths !== undefined && !down.paths.includes(path))) {
      for (const handler of handlers) handler.call(server, request, response);
      return;
    }
    const { answer } = down;
    turnedAway.push({ method: request.method ?? 'GET', path, status: answer.status, at: Date.now() });
    request.resume();
    request.on('end', () => response.writeHead(answer.status, answer.headers ?? {}).end(answer.body));
  });

  const answerAll: ReceiverSwitch['answerAll'] = (answer, options = {}) => {
    if (state === 'refusing') throw new Error('switchable: up() first, the server is closed');
    down = { answer, paths: options.paths };
    state = 'answering';
  };

  return {
    get state() {
      return state;
    },
    turnedAway,
    held,
    answerAll,
    holdAll() {
      if (state === 'refusing') throw new Error('switchable: up() first, the server is closed');
      state = 'holding';
    },
    releaseHeld(answer) {
      answerAll(answer);
      for (const request of held.splice(0, held.length)) request.answer(answer);
    },
    unavailable: (retryAfterSeconds, options) =>
      answerAll(
        {
          status: 503,
          headers: retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) },
          body: 'down',
        },
        options,
      ),
    rateLimited: (retryAfterSeconds, options) =>
      answerAll({ status: 429, headers: { 'retry-after': String(retryAfterSeconds) }, body: 'slow down' }, options),
    async refuseConnections() {
      if (state === 'refusing') return;
      down = undefined;
      state = 'refusing';
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
    async up() {
      down = undefined;
      if (state === 'refusing')
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(port, host, () => {
            server.off('error', reject);
            resolve();
          });
        });
      state = 'up';
    },
  };
}
