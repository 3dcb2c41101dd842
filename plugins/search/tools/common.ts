/** What the three search tools share: their dependencies, the `fields` argument, error naming. */
import { z } from 'zod';
import type { SearchIndex } from '../../../kernel/backend.js';
import { ValidationError } from '../../../kernel/errors.js';
import type { SearchOptions } from '../config.js';

export interface SearchToolDeps {
  index: SearchIndex;
  options: SearchOptions;
}

export const ANNOTATIONS = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

export const searchFieldsField = z
  .array(z.string())
  .optional()
  .describe(
    'Only these (id, title, type, tags, created, updated, modified, lastUpdated, size, content, content_hash, metadata.<key>, metadata.*); score, snippet, filename, path stay',
  );

/**
 * The backend names a bad SearchQuery member by its path (`text`, `metadata.0.operator`); the
 * agent should read the argument it passed (`query`, `metadata_filters.0.operator`).
 */
export async function namingArguments<T>(
  tool: string,
  rename: Record<string, string>,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof ValidationError) || typeof err.details.field !== 'string') throw err;
    const field = err.details.field;
    const [head = '', ...rest] = field.split('.');
    const argument = [rename[head] ?? head, ...rest].join('.');
    const reason = err.message.startsWith(`${field}:`) ? err.message.slice(field.length + 1).trim() : err.message;
    throw new ValidationError(`Invalid arguments for ${tool}: ${argument}: ${reason}`, {
      ...err.details,
      tool,
      field: argument,
      fields: [argument],
    });
  }
}
