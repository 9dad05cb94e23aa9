import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getPlatformProxy } from 'wrangler';
import { copyMigratedD1 } from '../../scripts/lib/local-d1.ts';
import type { PushQueueMessage } from '../../src/server/push/messages.ts';

/**
 * A real local D1 (Miniflare's, the one `wrangler dev` runs) with the repository's push migrations applied, for
 * tests of the dispatcher and the consumer in Node; and a queue that records what is sent to it, so a test can
 * drive the consumer message by message.
 */

export interface PushDatabase {
  db: D1Database;
  /** Deletes every row (the schema stays), so that a file's tests share one database and each starts empty. */
  empty(): Promise<void>;
  dispose(): Promise<void>;
}

export async function startPushDatabase(): Promise<PushDatabase> {
  const folder = await mkdtemp(path.join(tmpdir(), 'departures-board-push-d1-'));
  const configPath = path.join(folder, 'wrangler.json');
  const databases = [{ binding: 'PUSH_DB', database_name: 'push-test', database_id: 'push-test' }];
  await writeFile(
    configPath,
    JSON.stringify({ name: 'push-test', compatibility_date: '2026-10-01', d1_databases: databases }),
  );
  // Migrated by wrangler, as every local server's database is (scripts/lib/local-d1.ts).
  await copyMigratedD1(databases, folder);
  // getPlatformProxy's persist path is the `v3` folder inside what wrangler's `--persist-to` names.
  const persist = { path: path.join(folder, 'v3') };
  const proxy = await getPlatformProxy<{ PUSH_DB: D1Database }>({ configPath, persist });
  const db = proxy.env.PUSH_DB;
  return {
    db,
    async empty() {
      // Newest table first, so that no row is deleted before the rows that refer to it.
      const { results } = await db
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT GLOB 'sqlite_*' AND name NOT GLOB '_cf_*' AND name <> 'd1_migrations' ORDER BY rowid DESC",
        )
        .all<{ name: string }>();
      await db.batch([
        ...results.map(({ name }) => db.prepare(`DELETE FROM "${name}"`)),
        db.prepare('DELETE FROM sqlite_sequence'),
      ]);
    },
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
