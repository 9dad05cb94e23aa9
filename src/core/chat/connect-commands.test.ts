import { describe, expect, it } from 'vitest';
import { chatWebhookCommands } from './connect-commands.ts';
import { ChatWebhookForgetSchema, ChatWebhookRequestSchema } from './webhook-request.ts';

/**
 * The curl commands a page without JavaScript shows for connecting a Discord or Slack channel: written out by hand
 * below, and their bodies held to the write path's own schemas (what the server would accept).
 */

const BASE = 'https://board.example';

/** The JSON after `-d '…'` on a command's second line (its single quotes hold no quote here). */
const bodyOf = (command: string): unknown => JSON.parse(/-d '(.*)'$/.exec(command)![1]!);

describe('the curl commands that connect and stop a chat webhook', () => {
  it('for one provider in Chinese, with the example URL', () => {
    expect(chatWebhookCommands(BASE, { providers: ['provider_b'], kinds: ['reset'], locale: 'zh' })).toEqual({
      connect:
        "curl -X POST 'https://board.example/api/webhooks' -H 'Content-Type: application/json' \\\n" +
        `  -d '{"url":"https://discord.com/api/webhooks/<id>/<token>","providers":["provider_b"],"kinds":["reset"],"locale":"zh"}'`,
      stop:
        "curl -X DELETE 'https://board.example/api/webhooks' -H 'Content-Type: application/json' \\\n" +
        `  -d '{"url":"https://discord.com/api/webhooks/<id>/<token>"}'`,
    });
  });

  it('send bodies the write path accepts, once a real URL is in place', () => {
    const url = 'https://hooks.slack.com/services/T0/B1/secret';
    const choices = { providers: ['provider_a', 'provider_c'], kinds: ['reset', 'boost'], locale: 'en' } as const;
    const { connect, stop } = chatWebhookCommands(BASE, choices, url);
    expect(ChatWebhookRequestSchema.parse(bodyOf(connect))).toEqual({ url, ...choices });
    expect(ChatWebhookForgetSchema.parse(bodyOf(stop))).toEqual({ url });
  });

  it('keep a single quote of the URL inside the shell word', () => {
    const { stop } = chatWebhookCommands(BASE, { providers: ['provider_a'], kinds: ['reset'], locale: 'en' }, "x'y");
    expect(stop.split('\n')[1]).toBe(String.raw`  -d '{"url":"x'\''y"}'`);
  });
});
