/**
 * The loopback test switch (decisions.md, "Delivery that loses nothing"): the worker variable
 * `ALLOW_LOOPBACK_RECEIVERS=true` lets the outbound addresses of every channel, the review and ops channels, the
 * watched feeds, the push-service list and `GITHUB_API_URL` (the journal's commits) be `http://127.0.0.1:<port>`, so
 * that tests can receive on this machine.
 * `PUSH_ALLOW_LOOPBACK_RECEIVER=true`, its older name, keeps working. Off by default and never on in `npm start`.
 *
 * The one place that reads the switch: every part that decides whether loopback is allowed asks this function.
 */

/** The two spellings of the switch, as the worker's environment carries them (either may be absent). */
export interface LoopbackSwitch {
  ALLOW_LOOPBACK_RECEIVERS?: string;
  PUSH_ALLOW_LOOPBACK_RECEIVER?: string;
}

/**
 * Whether the loopback test switch is on: only the exact string `"true"` in either variable turns it on (`"TRUE"`,
 * `"1"`, `" true"` or `"yes"` do not), so that a deployment cannot turn it on by a near miss.
 */
export function allowsLoopbackReceivers(env: LoopbackSwitch): boolean {
  return env.ALLOW_LOOPBACK_RECEIVERS === 'true' || env.PUSH_ALLOW_LOOPBACK_RECEIVER === 'true';
}
