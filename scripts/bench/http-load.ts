import autocannon from 'autocannon';

/** One endpoint under load from this (second) process: requests per second and latency percentiles. */
export interface LoadResult {
  name: string;
  requestsPerSecond: number;
  /** The bytes of an answer on the wire, headers included (autocannon asks for no compression). */
  bytesPerAnswer: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

export interface LoadTarget {
  name: string;
  path: string;
  method?: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
  /**
   * For a page: the static file of the same build that holds its bytes, its template
   * (`/data/page-templates/<locale>/<page>`, the page before the slots that change with the clock are filled):
   * the page's throughput is also given as a ratio to that file's.
   */
  ownFile?: string;
}

export async function loadEndpoint(
  baseUrl: string,
  target: LoadTarget,
  seconds: number,
  connections: number,
): Promise<LoadResult> {
  const result = await autocannon({
    url: `${baseUrl}${target.path}`,
    method: target.method ?? 'GET',
    ...(target.body ? { body: target.body } : {}),
    headers: target.headers ?? {},
    duration: seconds,
    connections,
  });
  return {
    name: target.name,
    requestsPerSecond: result.requests.average,
    bytesPerAnswer: result.requests.total === 0 ? 0 : result.throughput.total / result.requests.total,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}
