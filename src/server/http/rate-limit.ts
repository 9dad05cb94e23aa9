/**
 * Whether this client (by `CF-Connecting-IP`) may go on under `limiter`, a Workers Rate Limiting binding. A
 * failing limiter lets the request through (logged): a broken counter must not become a 500 or lock people out.
 */
export async function withinRateLimit(limiter: RateLimit, request: Request, what: string): Promise<boolean> {
  const key = request.headers.get('CF-Connecting-IP') ?? 'unknown';
  try {
    return (await limiter.limit({ key })).success;
  } catch (error) {
    console.error(`${what} rate limiter failed; letting the request through`, error);
    return true;
  }
}
