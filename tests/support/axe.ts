import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/**
 * axe-core's violations on a loaded page, evaluated by the driver through the DevTools protocol: the pages' CSP
 * forbids a script element, not an evaluation by the driver, so one page load serves the page's own checks and axe.
 *
 * axe's source goes to a document once. Sending its 640 KB costs about a quarter of a second of the browser's CPU
 * each time (measured: as much for a comment of that size, so it is the transfer, not the compile), and a document
 * checked again (dark after light, the same page after a change) already holds it.
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The rules a colour scheme can change: the markup is the same in light and dark, only the colours differ. */
export const RULES_A_COLOUR_SCHEME_CHANGES = ['color-contrast', 'link-in-text-block'];

interface AxeRun {
  /** Only these rules (every rule axe runs by default when left out). */
  rules?: readonly string[];
  /** Only this part of the page (CSS selectors; the whole document when left out). */
  include?: readonly string[];
}

/** One line per violation: the rule and the nodes it found, so that a failure says where to look. */
export async function axeViolations(page: Page, { rules, include }: AxeRun = {}): Promise<string[]> {
  const loaded = await page.evaluate(() => typeof (globalThis as { axe?: { run?: unknown } }).axe?.run === 'function');
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(
    async ({ only, within }) => {
      const axe = (
        globalThis as unknown as {
          axe: {
            run: (
              context: Document | { include: string[] },
              options: { runOnly?: string[]; resultTypes: string[] },
            ) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }>;
          };
        }
      ).axe;
      // Every violation in full; of what passed, axe keeps one node per rule instead of describing each.
      return axe.run(within === undefined ? document : { include: within }, {
        resultTypes: ['violations'],
        ...(only === undefined ? {} : { runOnly: only }),
      });
    },
    { only: rules === undefined ? undefined : [...rules], within: include === undefined ? undefined : [...include] },
  );
  return result.violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  );
}
