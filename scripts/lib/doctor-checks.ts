import { evaluate, parse } from '@humanwhocodes/momoa';
import { chatPlatformOf } from '../../src/core/outbound/chat-platform.ts';

/**
 * The checks of `npm run doctor` (docs/deploy.md) as pure functions of what it read: the worker config, the
 * settings it was given (names and values, never printed), the migrations folder, the applied migrations locally
 * and remotely. Each problem is one line that names what is wrong and how to fix it; a note says what is on or off.
 */

export interface DoctorFindings {
  /** One line per problem, each with its fix: any makes the doctor exit 1. */
  problems: string[];
  /** What is on, off or not checked, for the summary. */
  notes: string[];
}

const empty = (): DoctorFindings => ({ problems: [], notes: [] });
const merge = (...all: DoctorFindings[]): DoctorFindings => ({
  problems: all.flatMap((findings) => findings.problems),
  notes: all.flatMap((findings) => findings.notes),
});

/** wrangler.jsonc as wrangler reads it: JSON with comments and trailing commas. */
export function parseWranglerConfig(text: string): Record<string, unknown> {
  return evaluate(parse(text, { mode: 'jsonc', allowTrailingCommas: true })) as Record<string, unknown>;
}

interface D1Entry {
  binding?: string;
  database_name?: string;
  database_id?: string;
}
interface KvEntry {
  binding?: string;
  id?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The shape of the checkout's placeholder D1 id: a UUID of zeros but for its version, variant and last digits. */
const ZERO_UUID = /^0{8}-0{4}-[0-9a-f]0{3}-[0-9a-f]0{3}-0{10}[0-9a-f]{2}$/i;
const KV_ID = /^[0-9a-f]{32}$/i;

/** Every string under `value` that says it is a placeholder, with its path (`kv_namespaces[0].id`). */
function placeholderStrings(value: unknown, at: string): { at: string; value: string }[] {
  if (typeof value === 'string') return /placeholder|change[-_ ]?me|todo|xxxxx/i.test(value) ? [{ at, value }] : [];
  if (Array.isArray(value)) return value.flatMap((item, index) => placeholderStrings(item, `${at}[${index}]`));
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([key, item]) => placeholderStrings(item, at ? `${at}.${key}` : key));
  return [];
}

/**
 * The ids a deployment must fill in: each D1 `database_id` (a UUID that `wrangler d1 create` prints, not the zero
 * placeholder), each KV `id` (32 hex digits from `wrangler kv namespace create`), and any other value that says it
 * is a placeholder. Queues and rate limiters are named, not numbered: they have no id to fill in.
 */
export function checkConfigIds(config: Record<string, unknown>, file = 'wrangler.jsonc'): DoctorFindings {
  const findings = empty();
  const reported = new Set<string>();
  const databases = (config.d1_databases ?? []) as D1Entry[];
  databases.forEach((database, index) => {
    const at = `d1_databases[${index}].database_id`;
    const id = database.database_id ?? '';
    const name = database.database_name ?? '<name>';
    const fix = `run \`npx wrangler d1 create ${name}\` and put the database_id it prints there`;
    if (ZERO_UUID.test(id) || /placeholder/i.test(id)) {
      findings.problems.push(`${file} ${at} (binding ${database.binding}) is the placeholder "${id}": ${fix}`);
      reported.add(at);
    } else if (!UUID.test(id)) {
      findings.problems.push(`${file} ${at} (binding ${database.binding}) "${id}" is not a D1 database id: ${fix}`);
      reported.add(at);
    }
  });
  const namespaces = (config.kv_namespaces ?? []) as KvEntry[];
  namespaces.forEach((namespace, index) => {
    const at = `kv_namespaces[${index}].id`;
    const id = namespace.id ?? '';
    const fix = `run \`npx wrangler kv namespace create ${namespace.binding}\` and put the id it prints there`;
    if (/placeholder/i.test(id)) {
      findings.problems.push(`${file} ${at} (binding ${namespace.binding}) is the placeholder "${id}": ${fix}`);
      reported.add(at);
    } else if (!KV_ID.test(id)) {
      findings.problems.push(`${file} ${at} (binding ${namespace.binding}) "${id}" is not a KV namespace id: ${fix}`);
      reported.add(at);
    }
  });
  for (const { at, value } of placeholderStrings(config, '')) {
    if (!reported.has(at))
      findings.problems.push(`${file} ${at} is the placeholder "${value}": replace it (docs/deploy.md)`);
  }
  return findings;
}

/** `SITE_URL`, the `{base_url}` of every published link: set, https, and not this machine. */
export function checkSiteUrl(siteUrl: string | undefined): DoctorFindings {
  const fix =
    'set it to the public https address, e.g. SITE_URL=https://board.example.org (in GitHub: the repository variable SITE_URL)';
  if (!siteUrl) return { problems: [`SITE_URL is not set: ${fix}`], notes: [] };
  const url = URL.parse(siteUrl);
  if (url === null) return { problems: [`SITE_URL is not a URL: ${fix}`], notes: [] };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    /^127\./.test(host) ||
    host === '::1' ||
    host === '0.0.0.0'
  )
    return { problems: [`SITE_URL points at this machine (${url.host}): ${fix}`], notes: [] };
  if (url.protocol !== 'https:') return { problems: [`SITE_URL is not https (${url.protocol}): ${fix}`], notes: [] };
  if (url.search || url.hash) return { problems: [`SITE_URL has a query or fragment: ${fix}`], notes: [] };
  return { problems: [], notes: [`SITE_URL: ${url.origin}${url.pathname === '/' ? '' : url.pathname}`] };
}

/**
 * Where a setting was found: the doctor's environment (or env file), the deployed worker's secret list, made on
 * this machine for a local server (`npm start`'s VAPID pair), nowhere.
 */
export type SettingSource = 'environment' | 'worker' | 'local' | 'absent';

/**
 * What the doctor knows of the worker's settings: their values from its environment (never printed) and, given a
 * Cloudflare token, the names of the secrets the deployed worker has (`wrangler secret list`), or why not.
 */
export interface SettingsInput {
  env: Readonly<Record<string, string | undefined>>;
  /** The deployed worker's secret names; `null` when they were not listed (with `workerSecretsNote` saying why). */
  workerSecrets: readonly string[] | null;
  workerSecretsNote?: string;
  /** Settings whose values (in `env`) this machine made for a local server, and the file that keeps them. */
  madeLocally?: { names: readonly string[]; file: string };
}

const VAPID = ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'VAPID_SUBJECT'] as const;

function sourceOf(name: string, input: SettingsInput): SettingSource {
  if (input.env[name] && input.madeLocally?.names.includes(name)) return 'local';
  if (input.env[name]) return 'environment';
  if (input.workerSecrets?.includes(name)) return 'worker';
  return 'absent';
}

const where = (source: SettingSource, input?: SettingsInput) =>
  source === 'worker'
    ? 'set in the worker'
    : source === 'local'
      ? `made locally (${input?.madeLocally?.file ?? 'on this machine'})`
      : 'set';

/** A Discord or Slack webhook over https: what the review and ops channels accept. */
function checkWebhook(name: string, value: string | undefined, purpose: string): string[] {
  if (value === undefined) return [];
  const url = URL.parse(value);
  if (url === null || url.protocol !== 'https:' || chatPlatformOf(value) === null)
    return [
      `${name} is not a Discord (https://discord.com/api/webhooks/<id>/<token>) or Slack (https://hooks.slack.com/services/…) webhook, so ${purpose} cannot be sent: set it again with \`npx wrangler secret put ${name}\``,
    ];
  return [];
}

/** The shortest review signing key taken: 32 characters, as `openssl rand -base64 32` makes 44. */
const REVIEW_SIGNING_KEY_MIN = 32;

/**
 * Each worker setting present or absent and what that turns on or leaves off. An absent optional one is a note (the
 * service runs without it); a half-set VAPID trio, a malformed key or a webhook that is not one is a problem.
 */
export function checkSettings(input: SettingsInput): DoctorFindings {
  const findings = empty();
  const { env } = input;
  const vapid = VAPID.map((name) => [name, sourceOf(name, input)] as const);
  const present = vapid.filter(([, source]) => source !== 'absent');
  if (present.length === 0) {
    findings.notes.push(
      'VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT: absent: browser push is off (503 push_unavailable); Discord, Slack and WebSub work without them',
    );
  } else if (present.length < VAPID.length) {
    const missing = vapid.filter(([, source]) => source === 'absent').map(([name]) => name);
    findings.problems.push(
      `${missing.join(', ')} absent while ${present.map(([name]) => name).join(', ')} set: push needs all three and stays off; put the missing ones with \`npx wrangler secret put <NAME>\` (docs/deploy.md, "Secrets")`,
    );
  } else {
    findings.notes.push(
      `VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT: ${where(present[0]![1], input)}: browser push is on`,
    );
  }
  const publicKey = env.VAPID_PUBLIC_KEY;
  if (publicKey !== undefined && !isBase64UrlOf(publicKey, 65, 4))
    findings.problems.push(
      'VAPID_PUBLIC_KEY is not a base64url P-256 public point (65 bytes, starting 0x04): make a new pair (docs/deploy.md, "Secrets")',
    );
  const privateKey = env.VAPID_PRIVATE_KEY;
  if (privateKey !== undefined && !isBase64UrlOf(privateKey, 32))
    findings.problems.push(
      'VAPID_PRIVATE_KEY is not a base64url P-256 private scalar (32 bytes): make a new pair (docs/deploy.md, "Secrets")',
    );
  const subject = env.VAPID_SUBJECT;
  if (subject !== undefined && !/^(mailto:[^@\s]+@[^@\s]+|https:\/\/\S+)$/.test(subject))
    findings.problems.push(
      'VAPID_SUBJECT is not a mailto: or https: contact: set it to e.g. mailto:ops@board.example.org',
    );

  const review = sourceOf('REVIEW_WEBHOOK_URL', input);
  findings.notes.push(
    review === 'absent'
      ? 'REVIEW_WEBHOOK_URL: absent: new drafts are kept in D1 and no reviewer is told (docs/watch.md)'
      : `REVIEW_WEBHOOK_URL: ${where(review)}: each new draft is sent to the review channel`,
  );
  findings.problems.push(...checkWebhook('REVIEW_WEBHOOK_URL', env.REVIEW_WEBHOOK_URL, 'review messages'));
  // The review page's links (docs/watch.md, "The review page"): optional; a short key is one a guess could find.
  const signing = sourceOf('REVIEW_SIGNING_KEY', input);
  findings.notes.push(
    signing === 'absent'
      ? 'REVIEW_SIGNING_KEY: absent: review messages carry no confirm link (the web-editor link alone), and /review/<id> answers 404 (docs/watch.md)'
      : sourceOf('GITHUB_TOKEN', input) === 'absent'
        ? `REVIEW_SIGNING_KEY: ${where(signing)}: the review page answers, but review messages carry its confirm link only once GITHUB_TOKEN is set too (docs/watch.md)`
        : `REVIEW_SIGNING_KEY: ${where(signing)}: review messages carry the confirm link to the review page (docs/watch.md)`,
  );
  if (env.REVIEW_SIGNING_KEY !== undefined && env.REVIEW_SIGNING_KEY.length < REVIEW_SIGNING_KEY_MIN)
    findings.problems.push(
      `REVIEW_SIGNING_KEY is shorter than ${REVIEW_SIGNING_KEY_MIN} characters: make a random one (\`openssl rand -base64 32\`) and set it with \`npx wrangler secret put REVIEW_SIGNING_KEY\``,
    );
  const ops = sourceOf('OPS_WEBHOOK_URL', input);
  findings.notes.push(
    ops === 'absent'
      ? 'OPS_WEBHOOK_URL: absent: no alert is sent when a part turns failing; /api/health still says it (docs/health.md)'
      : `OPS_WEBHOOK_URL: ${where(ops)}: alerts go to the ops channel (docs/health.md)`,
  );
  findings.problems.push(...checkWebhook('OPS_WEBHOOK_URL', env.OPS_WEBHOOK_URL, 'alerts'));

  // Telegram (docs/delivery.md, "Telegram"): the bot's token and its webhook's secret go together.
  const [token, secret] = [sourceOf('TELEGRAM_BOT_TOKEN', input), sourceOf('TELEGRAM_WEBHOOK_SECRET', input)];
  if (token === 'absent' && secret === 'absent')
    findings.notes.push(
      'TELEGRAM_BOT_TOKEN, TELEGRAM_WEBHOOK_SECRET: absent: no Telegram bot (POST /telegram answers 401)',
    );
  else if (token === 'absent' || secret === 'absent')
    findings.problems.push(
      `${token === 'absent' ? 'TELEGRAM_BOT_TOKEN' : 'TELEGRAM_WEBHOOK_SECRET'} is missing while its pair is set: set both (the bot's token from BotFather, and the secret given to setWebhook), or neither`,
    );
  else
    findings.notes.push(
      `TELEGRAM_BOT_TOKEN, TELEGRAM_WEBHOOK_SECRET: ${where(token)}: the Telegram bot answers and delivers`,
    );

  // The journal's commits (docs/watch.md, "Confirm"): optional; the confirm link also needs REVIEW_SIGNING_KEY.
  const github = sourceOf('GITHUB_TOKEN', input);
  findings.notes.push(
    github === 'absent'
      ? 'GITHUB_TOKEN: absent: confirmed events are not committed to git, and review messages keep the web-editor link alone (docs/deploy.md)'
      : `GITHUB_TOKEN: ${where(github)}: confirmed events are committed to git`,
  );
  const githubApi = env.GITHUB_API_URL;
  if (githubApi !== undefined && URL.parse(githubApi)?.protocol !== 'https:')
    findings.problems.push(
      'GITHUB_API_URL is not an https address: leave it out (https://api.github.com is the default); a loopback API is for tests only',
    );

  findings.notes.push(
    env.REPOSITORY_URL
      ? 'REPOSITORY_URL: set: the pages link commits, review links and the wrong-event form'
      : 'REPOSITORY_URL: absent here (deploy.yml sets it for the build): without it the pages show no commit or report links',
  );
  const caps = env.SUBSCRIBER_CAPS;
  if (caps !== undefined && !isCapsJson(caps))
    findings.problems.push(
      'SUBSCRIBER_CAPS is not a JSON object of whole numbers per channel (e.g. {"push":100000}): fix it or leave it out for the defaults',
    );
  if (env.ALLOW_LOOPBACK_RECEIVERS || env.PUSH_ALLOW_LOOPBACK_RECEIVER)
    findings.problems.push(
      'ALLOW_LOOPBACK_RECEIVERS (or PUSH_ALLOW_LOOPBACK_RECEIVER) is set: a test switch that lets every outbound address be this machine; remove it from the deployment',
    );
  if (input.workerSecrets === null && input.workerSecretsNote) findings.notes.push(input.workerSecretsNote);
  return findings;
}

function isBase64UrlOf(value: string, bytes: number, first?: number): boolean {
  if (!/^[A-Za-z0-9_-]+$/.test(value)) return false;
  const decoded = Buffer.from(value, 'base64url');
  return decoded.length === bytes && (first === undefined || decoded[0] === first);
}

function isCapsJson(value: string): boolean {
  try {
    const caps = JSON.parse(value) as unknown;
    return (
      caps !== null &&
      typeof caps === 'object' &&
      !Array.isArray(caps) &&
      Object.values(caps).every((cap) => Number.isInteger(cap) && (cap as number) >= 0)
    );
  } catch {
    return false;
  }
}

/** The applied migrations of one database, or why they are not known. */
export type AppliedMigrations =
  | { kind: 'applied'; names: readonly string[] }
  | { kind: 'pending'; names: readonly string[] }
  | { kind: 'skipped'; reason: string }
  | { kind: 'failed'; reason: string };

/**
 * The migrations folder against one database: `applied` lists what its `d1_migrations` holds, `pending` what
 * `wrangler d1 migrations list` says is still to apply. Pending migrations are a note, not a problem: the deploy
 * workflow applies them just before the deploy (and they are additive: tests/node/migrations-additive.test.ts).
 * A database that cannot be read remotely is a problem: a wrong id, or a token without D1 permission.
 */
export function checkMigrations(
  where: 'local' | 'remote',
  files: readonly string[],
  state: AppliedMigrations,
  databaseName: string,
): DoctorFindings {
  const apply = `npx wrangler d1 migrations apply ${databaseName} --${where}`;
  if (state.kind === 'skipped') return { problems: [], notes: [`migrations (${where}): not checked: ${state.reason}`] };
  if (state.kind === 'failed')
    return where === 'remote'
      ? {
          problems: [
            `migrations (remote): \`wrangler d1 migrations list ${databaseName} --remote\` failed (${state.reason}): check the database_id and that the token has "D1: Edit"`,
          ],
          notes: [],
        }
      : { problems: [], notes: [`migrations (local): not checked: ${state.reason}`] };
  const pending =
    state.kind === 'pending'
      ? files.filter((file) => state.names.includes(file))
      : files.filter((file) => !state.names.includes(file));
  const unknown = state.kind === 'applied' ? state.names.filter((name) => !files.includes(name)) : [];
  const notes: string[] = [];
  if (pending.length === 0) notes.push(`migrations (${where}): all ${files.length} applied`);
  else
    notes.push(
      `migrations (${where}): ${pending.length} of ${files.length} pending (${pending.join(', ')}): \`${apply}\` applies them (deploy.yml does, before the deploy)`,
    );
  if (unknown.length > 0)
    notes.push(
      `migrations (${where}): applied but not in migrations/: ${unknown.join(', ')} (a checkout older than the database; fine while migrations stay additive)`,
    );
  return { problems: [], notes };
}

export { merge as mergeFindings };
