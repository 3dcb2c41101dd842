/**
 * create_note into a type that does not exist. flint-note makes the type's folder on first use,
 * and so do we, but only for a name that is clearly new: a near miss of an existing type
 * (`genral`, `project` beside `projects`; the rule of decision 003) is a typo, refused with
 * "did you mean" before a stray folder is made.
 */
import { ValidationError } from '../../kernel/errors.js';
import type { ToolContext } from '../../kernel/tool.js';
import { nearMiss } from '../../kernel/util/closest.js';
import { NOTE_TYPES } from '../note-types/service.js';

export async function assertTypeOrNew(ctx: ToolContext, type: string, field = 'type'): Promise<void> {
  const types = ctx.tryResolve(NOTE_TYPES);
  if (!types || (await types.get(type).catch(() => undefined))) return;
  const existing = (await types.list()).map((t) => t.name);
  const suggestion = nearMiss(type, existing);
  if (!suggestion) return;
  throw new ValidationError(
    `Note type '${type}' does not exist — did you mean '${suggestion}'? Nothing was written. To start a new type by that name, create it first with create_note_type.`,
    { field, type_name: type, suggestion, available: existing },
  );
}
