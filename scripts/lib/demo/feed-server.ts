import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Watched feeds on loopback for the watcher's tests and benchmark: each path serves a document with a strong ETag
 * and a Last-Modified date and answers a request that names them (If-None-Match, If-Modified-Since) 304, as a
 * polite feed host does; a path can be made to fail or to redirect. Every request is recorded with its headers.
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
  /** Redirects every request to `path` to `location` (sent as given) with `status` until `serve` is called for it. */
  redirect(path: string, location: string, status?: number): void;
  requestsTo(path: string): FeedRequest[];
  close(): Promise<void>;
}

/** What a polite feed host answers: the documents by path, each with its validators; a path can be made to fail. */
export class FeedDocuments {
  private readonly served = new Map<string, Served>();
  private readonly failing = new Map<string, number>();
  private readonly redirects = new Map<string, { location: string; status: number }>();
  private clock = Date.parse('2026-01-01T00:00:00Z');

  /** Serves `body` at `path` from now on, with a new ETag and Last-Modified when it changed. */
  serve(path: string, body: string, contentType = 'application/rss+xml; charset=utf-8'): void {
    this.failing.delete(path);
    this.redirects.delete(path);
    if (this.served.get(path)?.body === body) return;
    this.clock += 60_000;
    const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
    this.served.set(path, { body, etag, lastModified: new Date(this.clock).toUTCString(), contentType });
  }

  /** Answers every request to `path` with `status` until `serve` is called for it again. */
  fail(path: string, status: number): void {
    this.failing.set(path, status);
  }

  /** Redirects every request to `path` to `location` (sent as given) with `status` until `serve` is called for it. */
  redirect(path: string, location: string, status = 302): void {
    this.redirects.set(path, { location, status });
  }

  /** The answer to a GET of `path` with the request's conditional headers (lowercase names). */
  answer(path: string, headers: Readonly<Record<string, string | undefined>>) {
    const failure = this.failing.get(path);
    if (failure !== undefined) return { status: failure, headers: {}, body: 'down for maintenance' };
    const redirect = this.redirects.get(path);
    if (redirect !== undefined)
      return { status: redirect.status, headers: { Location: redirect.location }, body: 'moved' };
    const document = this.served.get(path);
    if (document === undefined) return { status: 404, headers: {}, body: 'no such feed' };
    const validators = { ETag: document.etag, 'Last-Modified': document.lastModified };
    const unchanged =
      headers['if-none-match'] !== undefined
        ? headers['if-none-match'] === document.etag
        : headers['if-modified-since'] === document.lastModified;
    if (unchanged) return { status: 304, headers: validators, body: '' };
    return { status: 200, headers: { ...validators, 'Content-Type': document.contentType }, body: document.body };
  }
}

export async function startFeedServer(): Promise<FeedServer> {
  const documents = new FeedDocuments();
  const requests: FeedRequest[] = [];
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    const answer = documents.answer(path, request.headers as Record<string, string | undefined>);
    requests.push({ path, headers: request.headers, status: answer.status });
    response.writeHead(answer.status, answer.headers).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    serve: (path, body, contentType) => documents.serve(path, body, contentType),
    fail: (path, status) => documents.fail(path, status),
    redirect: (path, location, status) => documents.redirect(path, location, status),
    requestsTo: (path) => requests.filter((request) => request.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const xmlText = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** An RSS 2.0 document of `items` (link, title, date, and an HTML body if given), newest first as feeds list them. */
export const rssFeed = (
  items: readonly { link: string; title: string; publishedAt: string; html?: string }[],
): string =>
  `<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0"><channel><title>Watched account</title><link>https://posts.example/</link><description>Posts</description>
${items
  .map(
    (item) =>
      `<item><title>${xmlText(item.title)}</title><link>${xmlText(item.link)}</link><guid>${xmlText(item.link)}</guid>${item.html === undefined ? '' : `<description>${xmlText(item.html)}</description>`}<pubDate>${new Date(item.publishedAt).toUTCString()}</pubDate></item>`,
  )
  .join('\n')}
</channel></rss>`;
