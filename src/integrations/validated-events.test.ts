import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AstroIntegrationLogger } from 'astro';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeEvent } from '../core/test-events.ts';
import { writeEventTree } from '../../tests/support/event-trees.ts';
import { validatedEvents } from './validated-events.ts';

type SetupHook = (options: {
  logger: AstroIntegrationLogger;
  updateConfig: (config: unknown) => void;
}) => Promise<void>;

/**
 * The build's gate in-process: the integration's first hook over a tree, with Astro's logger and process.exit
 * stood in for (tests/validation-gate.test.ts builds for real with the same trees' kind of problems).
 */
async function runSetup(eventsDir: string): Promise<{ exitCode: unknown; errors: string[]; configured: boolean }> {
  vi.stubEnv('EVENTS_DIR', eventsDir);
  const errors: string[] = [];
  let configured = false;
  const exit = vi.spyOn(process, 'exit').mockImplementation((code) => {
    throw Object.assign(new Error('process.exit'), { code });
  });
  const logger = { info: () => undefined, error: (message: string) => errors.push(message) };
  const setup = validatedEvents().hooks['astro:config:setup'] as unknown as SetupHook;
  try {
    await setup({ logger: logger as unknown as AstroIntegrationLogger, updateConfig: () => (configured = true) });
    return { exitCode: undefined, errors, configured };
  } catch (error) {
    return { exitCode: (error as { code?: unknown }).code, errors, configured };
  } finally {
    exit.mockRestore();
  }
}

afterEach(() => vi.unstubAllEnvs());

describe('the build refuses hostile event files in its first hook', () => {
  it('stops with exit code 1, naming a key given twice, bytes that are not UTF-8 and a file over 16 KiB', async () => {
    const event = makeEvent({ id: 'one', announcedAt: '2026-01-01T00:00:00.000Z' });
    const root = await writeEventTree({
      'provider_a/one.json': `{"verified": false, ${JSON.stringify(event).slice(1)}`,
      'provider_a/three.json': `${JSON.stringify({ ...event, id: 'three' })}${' '.repeat(16_384)}`,
    });
    await writeFile(path.join(root, 'provider_a/two.json'), Buffer.from('{"summary": "Caf\xe9"}', 'latin1'));
    const result = await runSetup(root);
    expect(result.exitCode).toBe(1);
    expect(result.configured).toBe(false);
    expect(result.errors.join('\n').split('\n')).toEqual([
      'Invalid event files, nothing was built:',
      `${root}/provider_a/one.json → verified: duplicate key "verified" (line 1, columns 2 and 302); JSON keeps only the last, so the file says one thing and publishes another`,
      '    fix: keep one "verified" and delete the other',
      `${root}/provider_a/three.json: is 16684 bytes; an event file may be at most 16384 bytes (16 KiB)`,
      '    fix: an event file holds one short post: shorten the summary or the audience list',
      `${root}/provider_a/two.json: is not UTF-8: the byte at offset 16 (0xE9) does not start a valid UTF-8 character`,
      '    fix: save the file as UTF-8 in your editor (npm run event:add writes UTF-8), and check the text near that place',
    ]);
  });

  it('lets a good tree through', async () => {
    const event = makeEvent({ id: 'one', announcedAt: '2026-01-01T00:00:00.000Z' });
    const result = await runSetup(await writeEventTree({ 'provider_a/one.json': JSON.stringify(event) }));
    expect(result).toEqual({ exitCode: undefined, errors: [], configured: true });
  });
});
