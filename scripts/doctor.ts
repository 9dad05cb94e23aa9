import { parseArgs } from 'node:util';
import { runDoctor } from './lib/doctor.ts';

/**
 * `npm run doctor`: checks a deployment's configuration before it goes live (docs/deploy.md): the ids in
 * wrangler.jsonc, SITE_URL, each secret present or absent and what it turns on, the migrations pending locally and,
 * with CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID, remotely. Exit 1 with one line per problem and its fix;
 * exit 0 with a short summary. Settings come from the environment and any `--env-file` (a `.dev.vars`-style file);
 * no value is ever printed.
 *
 *   npm run doctor [-- --env-file .dev.vars] [--config wrangler.jsonc] [--persist-to .wrangler/state]
 */

const { values } = parseArgs({
  options: {
    config: { type: 'string' },
    'env-file': { type: 'string', multiple: true },
    'persist-to': { type: 'string' },
  },
});

try {
  const result = await runDoctor({
    ...(values.config ? { config: values.config } : {}),
    envFiles: values['env-file'] ?? [],
    ...(values['persist-to'] ? { persistTo: values['persist-to'] } : {}),
  });
  for (const line of result.lines) console.log(line);
  process.exitCode = result.code;
} catch (error) {
  // A config or env file that cannot be read or parsed: one line, not a stack.
  console.log(`problem: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
