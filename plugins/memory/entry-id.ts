import { ValidationError } from '../../kernel/errors.js';
import { nameString } from '../../toolkit/tool-fields.js';

const ID_TOKEN = /^id__[A-Za-z0-9]{6}$/;

export const idField = nameString()
  .min(1)
  .describe(
    'entry id: the id__XXXXXX token as it appears in links, e.g. "id__Ab3xYz" (the bare 6 characters "Ab3xYz" work too)',
  );

export function entryId(input: string): string {
  const trimmed = input.trim();
  if (ID_TOKEN.test(trimmed)) return trimmed;
  if (ID_TOKEN.test(`id__${trimmed}`)) return `id__${trimmed}`;
  throw new ValidationError(
    `"${trimmed}" is not an entry id: pass the id__XXXXXX token (or its 6 letters and digits).`,
    { field: 'id', value: trimmed },
  );
}

export function isIdToken(text: string): boolean {
  return ID_TOKEN.test(text);
}
