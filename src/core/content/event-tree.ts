import { PROVIDERS } from '../vocabulary.ts';
import type { ContentProblem } from './validate-event-files.ts';

/**
 * The shape of the events folder. Only regular files named `<id>.json` directly inside a provider folder
 * are events; anything else is an error naming it, so that nothing is published that validation did not
 * read (a symbolic link could publish another provider's file twice, or a file from outside the tree).
 */

export type TreeEntryType = 'file' | 'directory' | 'symlink' | 'other';

/** One entry of the events folder (its top level and the inside of its folders), relative with `/`. */
export interface TreeEntry {
  path: string;
  type: TreeEntryType;
}

export interface TreeClassification {
  /** Paths of the event files to read, in the order given. */
  eventFiles: string[];
  problems: ContentProblem[];
}

/** The name of the data set marker, which lives beside the events folder, not in it. */
export const DATASET_MARKER_NAME = 'dataset.json';

const isProvider = (name: string): boolean => (PROVIDERS as readonly string[]).includes(name);
const PROVIDER_LIST = PROVIDERS.join(', ');

const LINK_PROBLEM = {
  message:
    'is a symbolic link; only regular files are event files (a link could publish a file twice, or one that was never checked)',
  fix: 'replace the link with the file itself, or delete it',
};

function topLevelProblem({ path, type }: TreeEntry): ContentProblem {
  if (type === 'symlink') return { file: path, field: null, ...LINK_PROBLEM };
  if (type === 'directory') {
    return {
      file: path,
      field: null,
      message: `is not a provider folder; the events folder holds only the folders ${PROVIDER_LIST}`,
      fix: `rename it to one of ${PROVIDER_LIST}, or move it out of the events folder`,
    };
  }
  if (path === DATASET_MARKER_NAME) {
    return {
      file: path,
      field: null,
      message: 'is the data set marker, which lives beside the events folder, not in it',
      fix: `move it up one level (content/${DATASET_MARKER_NAME})`,
    };
  }
  return {
    file: path,
    field: null,
    message: 'is not inside a provider folder; event files live at <provider>/<id>.json',
    fix: `move it into the folder of its provider (${PROVIDER_LIST}), or out of the events folder`,
  };
}

function providerEntryProblem({ path, type }: TreeEntry): ContentProblem | undefined {
  if (type === 'symlink') return { file: path, field: null, ...LINK_PROBLEM };
  if (type === 'directory') {
    return {
      file: path,
      field: null,
      message: 'is a folder; a provider folder holds only <id>.json files, no folders',
      fix: 'move the event files up into the provider folder, and delete the folder',
    };
  }
  if (type === 'other') return { file: path, field: null, message: 'is not a regular file', fix: 'delete it' };
  if (!path.endsWith('.json')) {
    return {
      file: path,
      field: null,
      message: 'is not an event file; a provider folder holds only <id>.json files',
      fix: 'move it out of the events folder (notes belong elsewhere), or name an event file <id>.json',
    };
  }
  return undefined;
}

export function classifyTreeEntries(entries: readonly TreeEntry[]): TreeClassification {
  const eventFiles: string[] = [];
  const problems: ContentProblem[] = [];
  const providerFolders = new Set(
    entries
      .filter((entry) => !entry.path.includes('/') && entry.type === 'directory' && isProvider(entry.path))
      .map((entry) => entry.path),
  );
  for (const entry of entries) {
    const parts = entry.path.split('/');
    if (parts.length === 1) {
      if (!providerFolders.has(entry.path)) problems.push(topLevelProblem(entry));
    } else if (parts.length === 2 && providerFolders.has(parts[0]!)) {
      const problem = providerEntryProblem(entry);
      if (problem === undefined) eventFiles.push(entry.path);
      else problems.push(problem);
    }
    // Deeper entries, and the inside of a folder that is not a provider's, are never read: the folder
    // itself is already reported.
  }
  return { eventFiles, problems };
}
