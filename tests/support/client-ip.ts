import { randomInt } from 'node:crypto';

/**
 * A client address of its own for each test (from the IPv6 documentation prefix 2001:db8::/32), sent as
 * CF-Connecting-IP: the rate limiters count per IPv6 /64 (src/core/http/client-key.ts), so each address is in a
 * /64 of its own (the process's id, then a counter that starts at random), and no test spends another test's
 * minute. Only a header: nothing is ever sent to that address.
 */
const start = randomInt(0, 0x10000);
let counter = 0;
export const uniqueClientIp = (): string => {
  counter += 1;
  const network = ((start + counter) % 0x10000).toString(16);
  return `2001:db8:${(process.pid % 0xffff).toString(16)}:${network}::${randomInt(1, 0xffff).toString(16)}`;
};
