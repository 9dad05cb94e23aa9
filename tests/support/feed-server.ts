import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Watched feeds on loopback for the watcher's tests and benchmark: each path serves a document with a strong ETag
 * and a Last-Modified date and answers a request that names them (If-None-Match, If-Modified-Since) 304, as a
 * polite feed host does; a path can be made to fail. Every request is recorded with its headers.
 */

export interface FeedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  /** What the server answered. */
  status: number;
}

interface Served {
  body: string;
  etag: string;
  lastModified: string;
  contentType: string;
}

export interface FeedServer {
  origin: string;
  requests: FeedRequest[];
  /** Serves `body` at `path` from now on, with a new ETag and Last-Modified when it changed. */
  serve(path: string, body: string, contentType?: string): void;
  /** Answers every request to `path` with `status` until `serve` is called for it again. */
  fail(path: string, status: number): void;
  requestsTo(path: string): FeedRequest[];
  close(): Promise<void>;
}

export async function startFeedServer(): Promise<FeedServer> {
  const served = new Map<string, Served>();
  const failing = new Map<string, number>();
  const requests: FeedRequest[] = [];
  let clock = Date.parse('2026-01-01T00:00:00Z');
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    const answer = (status: number, headers: Record<string, string> = {}, body = '') => {
      requests.push({ path, headers: request.headers, status });
      response.writeHead(status, headers).end(body);
    };
    const failure = failing.get(path);
    if (failure !== undefined) return answer(failure, {}, 'down for maintenance');
    const document = served.get(path);
    if (document === undefined) return answer(404, {}, 'no such feed');
    const validators = { ETag: document.etag, 'Last-Modified': document.lastModified };
    const unchanged =
      request.headers['if-none-match'] !== undefined
        ? request.headers['if-none-match'] === document.etag
        : request.headers['if-modified-since'] === document.lastModified;
    if (unchanged) return answer(304, validators);
    return answer(200, { ...validators, 'Content-Type': document.contentType }, document.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    serve(path, body, contentType = 'application/rss+xml; charset=utf-8') {
      failing.delete(path);
      if (served.get(path)?.body === body) return;
      clock += 60_000;
      const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
      served.set(path, { body, etag, lastModified: new Date(clock).toUTCString(), contentType });
    },
    fail(path, status) {
      failing.set(path, status);
    },
    requestsTo: (path) => requests.filter((request) => request.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const xmlText = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** An RSS 2.0 document of `items` (link, title, date), newest first as feeds list them. */
export const rssFeed = (items: readonly { link: string; title: string; publishedAt: string }[]): string =>
  `<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0"><channel><title>Watched account</title><link>https://posts.example/</link><description>Posts</description>
${items
  .map(
    (item) =>
      `<item><title>${xmlText(item.title)}</title><link>${xmlText(item.link)}</link><guid>${xmlText(item.link)}</guid><pubDate>${new Date(item.publishedAt).toUTCString()}</pubDate></item>`,
  )
  .join('\n')}
</channel></rss>`;
