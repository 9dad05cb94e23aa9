import { z } from 'zod';
import { type Answer, type Received, type RecordingReceiver, startRecordingReceiver } from './recording-receiver.ts';

/**
 * An ntfy server on loopback, for the tests, written from ntfy's public "Publishing" document: a message published
 * as JSON is POSTed to the server's root, with `topic` (required) and optional `message`, `title`, `tags` (an array
 * of strings; those that are emoji short codes show as emoji), `priority` (1 min … 3 default, 4 high, 5 max), `click`
 * (a URL opened on a tap) and `actions` (`view` actions with `label` and `url`). The server answers `200` with the
 * message as JSON (`id`, `time`, `event: "message"`, …). Each body is recorded as read against that shape
 * (`undefined` when it does not fit it), for the test to hold it to.
 */

export const NtfyPublishSchema = z.strictObject({
  topic: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  message: z.string().optional(),
  title: z.string().optional(),
  tags: z.array(z.string()).optional(),
  priority: z.number().int().min(1).max(5).optional(),
  click: z.url().optional(),
  actions: z
    .array(
      z.strictObject({ action: z.literal('view'), label: z.string(), url: z.url(), clear: z.boolean().optional() }),
    )
    .max(3)
    .optional(),
});
export type NtfyPublish = z.infer<typeof NtfyPublishSchema>;

export type NtfyReceived = Received<NtfyPublish | undefined>;
export type NtfyReceiver = RecordingReceiver<NtfyPublish | undefined>;

let sequence = 0;
/** The message ntfy answers with: what it published. */
const published = (): Answer => {
  sequence += 1;
  return {
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: `msg${sequence}`, time: Math.floor(Date.now() / 1000), event: 'message' }),
  };
};

/** The body as ntfy reads a JSON publish: `undefined` when it would refuse it. */
function readPublish(body: Buffer): NtfyPublish | undefined {
  try {
    const parsed = NtfyPublishSchema.safeParse(JSON.parse(body.toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export const startNtfyReceiver = (): Promise<NtfyReceiver> =>
  startRecordingReceiver({ noun: 'messages', success: published, read: readPublish });
