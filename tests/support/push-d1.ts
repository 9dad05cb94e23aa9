import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getPlatformProxy } from 'wrangler';
import type { PushQueueMessage } from '../../src/server/push/messages.ts';

/**
 * A real local D1 (Miniflare's, the one `wrangler dev` runs) with the repository's push migrations applied, for
 * tests of the dispatcher and the consumer in Node; and a queue that records what is sent to it, so a test can
 * drive the consumer message by message.
 */

const MIGRATIONS = path.resolve(import.meta.dirname, '../../migrations');

export async function startPushDatabase(): Promise<{ db: D1Database; dispose(): Promise<void> }> {
  const folder = await mkdtemp(path.join(tmpdir(), 'departures-board-push-d1-'));
  const configPath = path.join(folder, 'wrangler.json');
  await writeFile(
    configPath,
    JSON.stringify({
      name: 'push-test',
      compatibility_date: '2026-10-01',
      d1_databases: [{ binding: 'PUSH_DB', database_name: 'push-test', database_id: 'push-test' }],
    }),
  );
  const proxy = await getPlatformProxy<{ PUSH_DB: D1Database }>({ configPath, persist: { path: folder } });
  const db = proxy.env.PUSH_DB;
  for (const file of (await readdir(MIGRATIONS)).filter((name) => name.endsWith('.sql')).sort()) {
    const sql = (await readFile(path.join(MIGRATIONS, file), 'utf8'))
      .split('\n')
      .filter((line) => !line.trimStart().startsWith('--'))
      .join('\n');
    const statements = sql
      .split(';')
      .map((statement) => statement.trim())
      .filter((statement) => statement !== '');
    await db.batch(statements.map((statement) => db.prepare(statement)));
  }
  return {
    db,
    async dispose() {
      await proxy.dispose();
      await rm(folder, { recursive: true, force: true });
    },
  };
}

export interface QueuedMessage {
  body: PushQueueMessage;
  delaySeconds: number | undefined;
}

/** A stand-in producer: keeps every message in order, to be handed to the consumer by the test. */
export function recordingQueue() {
  const sent: QueuedMessage[] = [];
  const queue = {
    async send(body: PushQueueMessage, options?: QueueSendOptions) {
      sent.push({ body, delaySeconds: options?.delaySeconds });
    },
    async sendBatch(messages: Iterable<MessageSendRequest<PushQueueMessage>>) {
      for (const message of messages) sent.push({ body: message.body, delaySeconds: message.delaySeconds });
    },
  };
  return { queue, sent, take: () => sent.splice(0, sent.length) };
}
