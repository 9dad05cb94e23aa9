import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import {
  WRONG_EVENT_FIELDS,
  WRONG_EVENT_FORM,
  WRONG_EVENT_TITLE_PREFIX,
  wrongEventReportUrl,
} from '../../src/core/event-report.ts';
import { makeEvent } from '../../src/core/test-events.ts';

/**
 * The issue forms in .github/ISSUE_TEMPLATE have the shape GitHub's form schema asks for (written out below from
 * GitHub's "Syntax for issue forms" and "Syntax for GitHub's form schema"; no validator of it ships as a package),
 * and the report link under each event (src/core/event-report.ts) fills fields the wrong-event form has.
 */

const FORM_DIR = '.github/ISSUE_TEMPLATE';
const TOP_LEVEL_KEYS = ['name', 'description', 'title', 'labels', 'assignees', 'projects', 'type', 'body'];
const ATTRIBUTES: Record<string, string[]> = {
  markdown: ['value'],
  input: ['label', 'description', 'placeholder', 'value'],
  textarea: ['label', 'description', 'placeholder', 'value', 'render'],
  dropdown: ['label', 'description', 'multiple', 'options', 'default'],
  checkboxes: ['label', 'description', 'options'],
  upload: ['label', 'description'],
};
/** The field types GitHub fills from a query parameter named by the field's id. */
const PREFILLED_TYPES = ['input', 'textarea'];

interface Element {
  type: string;
  id?: string;
  attributes: Record<string, unknown>;
  validations?: Record<string, unknown>;
}
interface Form {
  name: string;
  description: string;
  title?: string;
  labels?: string[];
  body: Element[];
}

// config.yml (the chooser's settings) is not a form.
const FILES = readdirSync(FORM_DIR).filter((file) => /\.ya?ml$/.test(file) && !/^config\.ya?ml$/.test(file));

function readForm(file: string): Form {
  const document = parseDocument(readFileSync(`${FORM_DIR}/${file}`, 'utf8'), { uniqueKeys: true });
  expect(document.errors.map(String), `${file} parses as YAML`).toEqual([]);
  expect(document.warnings.map(String), `${file} parses without warnings`).toEqual([]);
  return document.toJS() as Form;
}

/** What GitHub's form schema would refuse in a form, one line each. */
function formProblems(form: Form): string[] {
  const problems: string[] = [];
  const unknown = Object.keys(form).filter((key) => !TOP_LEVEL_KEYS.includes(key));
  if (unknown.length > 0) problems.push(`unknown top-level keys: ${unknown.join(', ')}`);
  for (const key of ['name', 'description'] as const)
    if (typeof form[key] !== 'string' || form[key].trim() === '') problems.push(`${key} must be a non-empty string`);
  if (form.title !== undefined && typeof form.title !== 'string') problems.push('title must be a string');
  if (form.labels !== undefined && !(Array.isArray(form.labels) && form.labels.every((l) => typeof l === 'string')))
    problems.push('labels must be a list of strings');
  if (!Array.isArray(form.body) || form.body.length === 0) return [...problems, 'body must be a non-empty list'];
  if (form.body.every((element) => element.type === 'markdown')) problems.push('body needs a field, not only text');
  const ids = new Set<string>();
  const labels = new Set<string>();
  for (const [index, element] of form.body.entries()) {
    const where = `body[${index}]`;
    const allowed = ATTRIBUTES[element.type];
    if (allowed === undefined) {
      problems.push(`${where}: unknown type ${element.type}`);
      continue;
    }
    const extra = Object.keys(element).filter((key) => !['type', 'id', 'attributes', 'validations'].includes(key));
    if (extra.length > 0) problems.push(`${where}: unknown keys ${extra.join(', ')}`);
    const attributes = element.attributes ?? {};
    const extraAttributes = Object.keys(attributes).filter((key) => !allowed.includes(key));
    if (extraAttributes.length > 0) problems.push(`${where}: unknown attributes ${extraAttributes.join(', ')}`);
    if (element.id !== undefined) {
      if (!/^[A-Za-z0-9_-]+$/.test(element.id)) problems.push(`${where}: id ${element.id} has other characters`);
      if (ids.has(element.id)) problems.push(`${where}: id ${element.id} repeated`);
      ids.add(element.id);
    }
    if (element.type === 'markdown') {
      if (typeof attributes['value'] !== 'string' || attributes['value'].trim() === '')
        problems.push(`${where}: markdown needs a value`);
      if (element.validations !== undefined) problems.push(`${where}: markdown takes no validations`);
      continue;
    }
    const label = attributes['label'];
    if (typeof label !== 'string' || label.trim() === '') problems.push(`${where}: needs a label`);
    else if (labels.has(label)) problems.push(`${where}: label ${label} repeated`);
    else labels.add(label);
    if (element.type === 'dropdown' || element.type === 'checkboxes') {
      const options = attributes['options'];
      if (!Array.isArray(options) || options.length === 0) problems.push(`${where}: needs options`);
      else if (element.type === 'dropdown') {
        if (!options.every((option) => typeof option === 'string')) problems.push(`${where}: options are strings`);
        if (new Set(options).size !== options.length) problems.push(`${where}: options repeated`);
      }
    }
    if (element.validations !== undefined) {
      const { required, ...rest } = element.validations;
      if (Object.keys(rest).length > 0 || (required !== undefined && typeof required !== 'boolean'))
        problems.push(`${where}: validations are only required: true or false`);
    }
  }
  return problems;
}

describe('the issue forms', () => {
  it('include the wrong-event form the report links open', () => {
    expect(FILES).toContain(WRONG_EVENT_FORM);
  });

  it.each(FILES)('%s has the shape of a GitHub issue form', (file) => {
    expect(formProblems(readForm(file))).toEqual([]);
  });

  it('the shape check refuses what GitHub would (so that it checks something)', () => {
    const form = readForm(WRONG_EVENT_FORM);
    const field = form.body[1]!;
    expect(formProblems({ ...form, body: [...form.body, { ...field }] })).toEqual([
      `body[${form.body.length}]: id ${field.id} repeated`,
      `body[${form.body.length}]: label ${field.attributes['label']} repeated`,
    ]);
    expect(
      formProblems({ ...form, body: [{ ...field, id: 'event id', attributes: { label: 'x', size: 3 } }] }),
    ).toEqual(['body[0]: unknown attributes size', 'body[0]: id event id has other characters']);
    expect(formProblems({ ...form, name: '' })).toEqual(['name must be a non-empty string']);
  });
});

describe('the wrong-event form and the report link', () => {
  const form = readForm(WRONG_EVENT_FORM);
  const fieldsById = new Map(form.body.flatMap((element) => (element.id === undefined ? [] : [[element.id, element]])));

  it('has an input for each field the link fills', () => {
    for (const id of Object.values(WRONG_EVENT_FIELDS)) {
      expect(fieldsById.get(id)?.type, id).toBeOneOf(PREFILLED_TYPES);
    }
  });

  it('every parameter of a link but template and title names a field of the form', () => {
    const url = new URL(
      wrongEventReportUrl('https://code.example/owner/board', 'https://board.example', makeEvent({ id: 'x1' }))!,
    );
    expect(url.pathname).toBe('/owner/board/issues/new');
    expect(url.searchParams.get('template')).toBe(WRONG_EVENT_FORM);
    const fields = [...url.searchParams.keys()].filter((name) => name !== 'template' && name !== 'title');
    expect(fields).toEqual(['event-id', 'page-url', 'source-url']);
    for (const name of fields) expect(fieldsById.has(name), name).toBe(true);
  });

  it('titles an issue as the link does, and asks what is wrong', () => {
    expect(form.title).toBe(WRONG_EVENT_TITLE_PREFIX);
    expect(fieldsById.get('event-id')?.validations?.['required']).toBe(true);
    expect(fieldsById.get('details')?.validations?.['required']).toBe(true);
  });
});
