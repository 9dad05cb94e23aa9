import type { core } from 'zod';
import { EVENT_KINDS, PROVIDERS, ProviderSchema } from '../enums.ts';
import { EventSchema, SUMMARY_MAX_CHARACTERS, type Event } from '../schemas.ts';
import { impossibleDateTime } from './impossible-date.ts';
import { parseEventJson } from './parse-event-json.ts';
import { timeProblems } from './time-rules.ts';

/**
 * The content rules: every event file is checked on its own (its size and JSON: parse-event-json.ts; the Event
 * schema) and against its place in the tree and its neighbours (folder, file name, unique id, not in the future).
 * Every problem of every file is reported, so one run of `npm run validate` lists all there is to fix.
 */

/** One file under the events folder, its path relative to that folder with `/` separators. */
export interface EventFile {
  path: string;
  text: string;
}

export interface ContentProblem {
  file: string;
  /** The Event field at fault, or null when the problem is the file as a whole. */
  field: string | null;
  message: string;
  /** How to fix this problem, when there is more to say than the message does. */
  fix?: string;
}

export interface ContentValidation {
  events: Event[];
  problems: ContentProblem[];
}

const FILE_PATH = /^([^/]+)\/([^/]+)\.json$/;

/** How to fix a problem in each field; the lists and limits come from the schema's own constants. */
export const FIELD_HINTS: Record<string, string> = {
  id: 'the post id from its URL: letters, digits, "_" or "-"; the file is named <id>.json',
  provider: `one of ${PROVIDERS.join(', ')}, the same as the folder the file is in`,
  kind: `one of ${EVENT_KINDS.join(', ')}`,
  scope: '"global", or "plan:<plan_name>" such as "plan:pro"',
  announcedAt: 'UTC with milliseconds, e.g. 2026-11-21T10:30:00.000Z (npm run event:add converts any offset)',
  effectiveAt: 'null, or a UTC time with milliseconds later than announcedAt',
  sourceUrl: 'the https address of the original public post',
  sourceAccount: 'the handle of the account that posted, without @',
  summary: `an excerpt of the post, 1 to ${SUMMARY_MAX_CHARACTERS} characters`,
  audience: 'a list of strings, usually []',
  verified: 'false for a draft; true only after a person has checked the post (npm run event:verify <id>)',
};

const fieldHint = (field: string | null): string | undefined =>
  field === null ? undefined : FIELD_HINTS[field.split('.')[0]!];

function describeSchemaIssue(issue: core.$ZodIssue, raw: Record<string, unknown>): string {
  const [top] = issue.path;
  if (issue.code === 'invalid_type' && issue.path.length === 1 && typeof top === 'string' && !(top in raw)) {
    return `is missing (expected ${issue.expected})`;
  }
  if (issue.code === 'unrecognized_keys') return `unknown field; an Event has exactly the fields of the spec (2.4)`;
  if (issue.code === 'invalid_format' && issue.path.length === 1 && typeof top === 'string') {
    const value = raw[top];
    const impossible = typeof value === 'string' ? impossibleDateTime(value) : undefined;
    if (impossible !== undefined) return `is "${value}": ${impossible}`;
  }
  return issue.message;
}

function schemaProblems(file: string, raw: unknown): { event?: Event; problems: ContentProblem[] } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return {
      problems: [
        {
          file,
          field: null,
          message: 'must hold one JSON object (a full Event)',
          fix: 'see docs/content.md for an example file',
        },
      ],
    };
  }
  const parsed = EventSchema.safeParse(raw);
  if (parsed.success) return { event: parsed.data, problems: [] };
  const problems = parsed.error.issues.flatMap((issue) => {
    const message = describeSchemaIssue(issue, raw as Record<string, unknown>);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((field) => ({ file, field, message, fix: 'delete the field' }));
    }
    const field = issue.path.join('.') || null;
    // A rule that knows its own fix says it (a refused character: which one, and how it may be written).
    const ownFix = issue.code === 'custom' ? issue.params?.['fix'] : undefined;
    const fix = typeof ownFix === 'string' ? ownFix : fieldHint(field);
    return [{ file, field, message, ...(fix === undefined ? {} : { fix }) }];
  });
  return { problems };
}

function placementProblems(file: string, event: Event): ContentProblem[] {
  const [, folder, name] = FILE_PATH.exec(file) ?? [];
  const problems: ContentProblem[] = [];
  if (folder !== event.provider) {
    problems.push({
      file,
      field: 'provider',
      message: `is "${event.provider}" but the file is in the "${folder}" folder`,
      fix: `move the file to ${event.provider}/, or set provider to "${folder}"`,
    });
  }
  if (name !== event.id) {
    problems.push({
      file,
      field: 'id',
      message: `is "${event.id}" but the file is named "${name}.json"`,
      fix: `name the file ${event.id}.json, or set id to "${name}" (an id is the post id from its URL)`,
    });
  }
  return problems;
}

export function validateEventFiles(files: readonly EventFile[], now: Date): ContentValidation {
  const events: Event[] = [];
  const problems: ContentProblem[] = [];
  const fileById = new Map<string, string>();

  for (const { path, text } of [...files].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    const [, folder] = FILE_PATH.exec(path) ?? [];
    if (folder === undefined || !ProviderSchema.safeParse(folder).success) {
      problems.push({
        file: path,
        field: null,
        message: 'is not in a provider folder; event files live at <provider>/<id>.json',
        fix: `move it into the folder of its provider (${ProviderSchema.options.join(', ')})`,
      });
      continue;
    }
    const parsed = parseEventJson(path, text);
    if ('problems' in parsed) {
      problems.push(...parsed.problems);
      continue;
    }
    const { event, problems: fieldProblems } = schemaProblems(path, parsed.raw);
    problems.push(...fieldProblems);
    if (event === undefined) continue;

    const fileProblems = [...placementProblems(path, event), ...timeProblems(path, event, now)];
    const firstFile = fileById.get(event.id);
    if (firstFile !== undefined) {
      fileProblems.push({
        file: path,
        field: 'id',
        message: `duplicate id "${event.id}", already used by ${firstFile}`,
        fix: 'if both files are the same post, delete one of them; else give this one the id of its own post (and rename the file)',
      });
    } else {
      fileById.set(event.id, path);
    }
    problems.push(...fileProblems);
    if (fileProblems.length === 0) events.push(event);
  }
  return { events, problems };
}

/** One problem as `npm run validate` prints it: the file, the field, what is wrong and how to fix it. */
export const formatContentProblem = ({ file, field, message, fix }: ContentProblem, root: string): string =>
  `${root}/${file}${field === null ? '' : ` → ${field}`}: ${message}${fix ? `\n    fix: ${fix}` : ''}`;
