/**
 * Each channel's D1 tables on the delivery path (migrations/0001_push.sql, 0006_websub.sql,
 * 0007_chat_webhooks.sql): its subscribers (`id`, `failing_since`) and its ledger (one row per subscriber and
 * claimed thing, with `sent_at`). The shared statements (ledger.ts, outcomes.ts) write these names into their SQL,
 * so they are constants here and nowhere else: a caller names a channel, never a table or a column.
 */
export const CHANNEL_TABLES = {
  push: {
    subscribers: 'subscriptions',
    ledger: 'deliveries',
    subscriber: 'subscription_id',
    claim: ['event_id', 'transition'],
  },
  chat: {
    subscribers: 'chat_webhooks',
    ledger: 'chat_deliveries',
    subscriber: 'webhook_id',
    claim: ['event_id', 'transition'],
  },
  websub: {
    subscribers: 'websub_subscriptions',
    ledger: 'websub_deliveries',
    subscriber: 'subscription_id',
    claim: ['change'],
  },
} as const;

export type Channel = keyof typeof CHANNEL_TABLES;

/** What a ledger row claims, its columns' values in their order: (event id, transition), or WebSub's change. */
export type ClaimKey<C extends Channel> = StringsFor<(typeof CHANNEL_TABLES)[C]['claim']>;
type StringsFor<Columns extends readonly string[]> = { readonly [I in keyof Columns]: string };

/** A claim's values as the statement binds them, after the ids' list (?1). */
export const claimValues = <C extends Channel>(key: ClaimKey<C>): readonly string[] => key as readonly string[];

/** Lists travel to D1 as one JSON parameter (`json_each`). */
export const jsonIds = (ids: readonly number[]) => JSON.stringify(ids);

/** `id IN` the JSON list bound as ?1. */
export const IN_IDS = 'IN (SELECT value FROM json_each(?1))';
