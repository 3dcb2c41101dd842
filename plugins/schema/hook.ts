/**
 * The `note.beforeWrite` hook: refuses changes to vault-owned keys, then checks the metadata
 * against the note type's schema, honouring the vault config (validate_on_create,
 * validate_on_update, strict_validation). A failure throws before anything is written and
 * names every field, rule and value; defaults are filled into the draft it returns.
 *
 * Updates check only what the caller changed (plus required fields still being present), and
 * an update that changes no metadata (content, title) is not checked: a note that predates a
 * schema change can still be edited, and renamed, without first fixing its metadata.
 */
import { ValidationError } from '../../kernel/errors.js';
import type { NoteDraft } from '../../kernel/hooks.js';
import type { NoteService } from '../../kernel/notes.js';
import type { VaultConfig } from '../../toolkit/vault-config.js';
import { protectedIssues } from './protected-fields.js';
import type { SchemaService } from './service.js';
import type { FieldIssue } from './validate.js';

export interface SchemaHookDeps {
  schema: SchemaService;
  notes: NoteService;
  config(): Promise<Pick<VaultConfig, 'default_note_type' | 'metadata'>>;
}

export function schemaBeforeWrite(deps: SchemaHookDeps) {
  return async (draft: NoteDraft): Promise<NoteDraft | void> => {
    const config = await deps.config();
    const type = draft.type ?? config.default_note_type;
    const refused = await protectedIssues(draft, config.default_note_type, () => (draft.id ? deps.notes.get(draft.id) : Promise.resolve(undefined)));
    if (refused.length) throw metadataError(type, await withTypeHint(deps.schema, type, refused));

    const enabled = draft.op === 'create' ? config.metadata.validate_on_create : config.metadata.validate_on_update;
    if (!enabled || (draft.op === 'update' && draft.changedKeys.length === 0)) return;
    const result = await deps.schema.check({
      type,
      metadata: draft.metadata,
      op: draft.op,
      changedKeys: draft.changedKeys,
      strict: config.metadata.strict_validation,
    });
    if (result.errors.length) throw metadataError(type, result.errors);
    if (result.filled.length) return { ...draft, metadata: result.metadata };
  };
}

/**
 * `type` sent as metadata is most often a schema's own field meant (seed 000's reading type
 * has `type: Type of reading`): the refusal says which field to use instead, or that the
 * schema itself needs that field renamed.
 */
async function withTypeHint(schema: SchemaService, type: string, issues: FieldIssue[]): Promise<FieldIssue[]> {
  if (!issues.some((i) => i.field === 'type')) return issues;
  const fields = (await schema.forType(type).catch(() => undefined))?.fields.map((f) => f.name) ?? [];
  const instead = fields.find((f) => f.endsWith('_type'));
  const hint = instead
    ? `; this type records that as '${instead}' (set metadata.${instead})`
    : fields.includes('type')
      ? `; the schema of '${type}' names a field 'type', which is the note type itself: rename that field in ${type}/_description.md (update_note_type), e.g. to ${type}_type`
      : '';
  return hint ? issues.map((i) => (i.field === 'type' ? { ...i, message: i.message + hint } : i)) : issues;
}

export function metadataError(type: string, issues: readonly FieldIssue[]): ValidationError {
  const first = issues[0] as FieldIssue;
  return new ValidationError(`Metadata validation failed for note type '${type}': ${issues.map((i) => i.message).join('; ')}. Nothing was written.`, {
    type,
    field: first.field,
    rule: first.rule,
    ...(first.value !== undefined ? { value: first.value } : {}),
    fields: [...new Set(issues.map((i) => i.field))],
    errors: issues,
  });
}
