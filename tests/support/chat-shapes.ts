import { z } from 'zod';

/**
 * The two platforms' documented message bodies, written from their documentation and not from our renderer
 * (src/core/chat/message.ts), so that a test can hold what the service sends to what Discord and Slack accept.
 *
 * Discord, "Webhook Resource", Execute Webhook (JSON params), and "Message Resource", Embed Object with its
 * limits: `content` up to 2000 characters; at most 10 embeds; an embed's `title` up to 256 characters,
 * `description` up to 4096, `footer.text` up to 2048, `author.name` up to 256, at most 25 `fields` (name 256,
 * value 1024); the title, description, field names and values, footer text and author name of all embeds
 * together at most 6000 characters; `timestamp` an ISO 8601 timestamp; `allowed_mentions.parse` of `roles`,
 * `users`, `everyone`; a message needs `content` or an embed (or a file, a poll, components).
 *
 * Slack, "Sending messages using incoming webhooks", "Block Kit" (blocks: section, context) and "Composition
 * objects" (text object): `text` is the message's text, and with blocks its fallback for notifications (Slack
 * truncates it at 40,000 characters and asks for at most 4,000); at most 50 blocks; a section's text object up to
 * 3000 characters, `block_id` up to 255, at most 10 `fields` of up to 2000 characters each; a context block at
 * most 10 elements; a text object is `plain_text` or `mrkdwn` with at least one character. Slack's "Formatting
 * text for app surfaces": in mrkdwn `&`, `<` and `>` are control characters, written `&amp;`, `&lt;`, `&gt;`
 * otherwise; `<url|label>` is a link and `<!date^unix^format|fallback>` a date each reader sees in their own time.
 */

const discordEmbed = z.strictObject({
  title: z.string().max(256).optional(),
  type: z.literal('rich').optional(),
  description: z.string().max(4096).optional(),
  url: z.url().optional(),
  timestamp: z.iso.datetime({ offset: true }).optional(),
  color: z.int().min(0).max(0xffffff).optional(),
  footer: z.strictObject({ text: z.string().max(2048), icon_url: z.url().optional() }).optional(),
  author: z.strictObject({ name: z.string().max(256), url: z.url().optional() }).optional(),
  fields: z
    .array(z.strictObject({ name: z.string().max(256), value: z.string().max(1024), inline: z.boolean().optional() }))
    .max(25)
    .optional(),
});
type DiscordEmbed = z.infer<typeof discordEmbed>;

const embedCharacters = (embed: DiscordEmbed) =>
  [
    embed.title,
    embed.description,
    embed.footer?.text,
    embed.author?.name,
    ...(embed.fields ?? []).flatMap((field) => [field.name, field.value]),
  ].reduce((sum, text) => sum + (text?.length ?? 0), 0);

export const DiscordExecuteWebhookSchema = z
  .strictObject({
    content: z.string().max(2000).optional(),
    username: z.string().min(1).max(80).optional(),
    avatar_url: z.url().optional(),
    tts: z.boolean().optional(),
    embeds: z.array(discordEmbed).max(10).optional(),
    allowed_mentions: z
      .strictObject({
        parse: z.array(z.enum(['roles', 'users', 'everyone'])).optional(),
        roles: z.array(z.string()).max(100).optional(),
        users: z.array(z.string()).max(100).optional(),
        replied_user: z.boolean().optional(),
      })
      .optional(),
  })
  .refine((body) => body.content !== undefined || (body.embeds?.length ?? 0) > 0, 'content or an embed is required')
  .refine(
    (body) => (body.embeds ?? []).reduce((sum, embed) => sum + embedCharacters(embed), 0) <= 6000,
    'the embeds carry at most 6000 characters in all',
  );

/** Every `<…>` in mrkdwn is a link or a date, and every `&` starts one of the three entities. */
export function isSafeMrkdwn(text: string): boolean {
  const controls = text.match(/<[^>]*>/g) ?? [];
  const known = controls.every((control) =>
    /^<(https?:\/\/[^|<>\s]+\|[^<>]+|!date\^\d+\^[^|<>]+\|[^<>]+)>$/.test(control),
  );
  const outside = text.replace(/<[^>]*>/g, '');
  const entities = (text.match(/&/g) ?? []).length === (text.match(/&(amp|lt|gt);/g) ?? []).length;
  return known && !/[<>]/.test(outside) && entities;
}

const mrkdwn = z.strictObject({
  type: z.literal('mrkdwn'),
  text: z.string().min(1).max(3000).refine(isSafeMrkdwn, 'mrkdwn with a bare &, < or >'),
  verbatim: z.boolean().optional(),
});
const plainText = z.strictObject({
  type: z.literal('plain_text'),
  text: z.string().min(1).max(3000),
  emoji: z.boolean().optional(),
});
const textObject = z.union([mrkdwn, plainText]);

const sectionBlock = z
  .strictObject({
    type: z.literal('section'),
    text: textObject.optional(),
    block_id: z.string().max(255).optional(),
    fields: z
      .array(textObject.and(z.object({ text: z.string().max(2000) })))
      .max(10)
      .optional(),
  })
  .refine((block) => block.text !== undefined || block.fields !== undefined, 'a section needs text or fields');
const contextBlock = z.strictObject({
  type: z.literal('context'),
  elements: z.array(textObject).min(1).max(10),
  block_id: z.string().max(255).optional(),
});

export const SlackIncomingWebhookSchema = z.strictObject({
  text: z.string().min(1).max(4000).refine(isSafeMrkdwn, 'text with a bare &, < or >'),
  blocks: z
    .array(z.union([sectionBlock, contextBlock]))
    .max(50)
    .optional(),
});
