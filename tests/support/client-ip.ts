import { randomInt } from 'node:crypto';

/**
 * A client address of its own for each test (from the IPv6 documentation prefix 2001:db8::/32), sent as
 * CF-Connecting-IP: MCP's rate limiter counts per address, so no test spends another test's minute.
 * Only a header: nothing is ever sent to that address.
 */
let counter = 0;
export const uniqueClientIp = (): string => {
  counter += 1;
  return `2001:db8:${(process.pid % 0xffff).toString(16)}:${randomInt(0, 0xffff).toString(16)}::${counter.toString(16)}`;
};
