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
import type { VaultConfig } from '../../toolkit/vault-config.js';
import { protectedIssues } from './protected-fields.js';
import type { SchemaService } from './service.js';
import type { FieldIssue } from './validate.js';

export interface SchemaHookDeps {
  schema: SchemaService;
  config(): Promise<Pick<VaultConfig, 'default_note_type' | 'metadata'>>;
}

/**
 * One schema check per write. It refuses (when the vault config validates this kind of write)
 * and, whenever the caller set metadata, reports the fields the schema does not define and a
 * schema with faults of its own as the draft's warnings, which the tool returns.
 */
export function schemaBeforeWrite(deps: SchemaHookDeps) {
  return async (draft: NoteDraft): Promise<NoteDraft | void> => {
    const config = await deps.config();
    const type = draft.type ?? config.default_note_type;
    const refused = await protectedIssues(draft, config.default_note_type, async () => draft.previous);
    if (refused.length) throw metadataError(type, await withTypeHint(deps.schema, type, refused));

    const enabled = draft.op === 'create' ? config.metadata.validate_on_create : config.metadata.validate_on_update;
    const validate = enabled && !(draft.op === 'update' && draft.changedKeys.length === 0);
    const report = draft.changedKeys.length > 0 && draft.type !== undefined;
    if (!validate && !report) return;
    const result = await deps.schema.check({
      type,
      metadata: draft.metadata,
      op: draft.op,
      changedKeys: draft.changedKeys,
      strict: config.metadata.strict_validation,
    });
    if (validate && result.errors.length) throw metadataError(type, result.errors);
    const warnings = report ? schemaNotices(type, result) : [];
    if (!(validate && result.filled.length) && warnings.length === 0) return;
    return {
      ...draft,
      ...(validate && result.filled.length ? { metadata: result.metadata } : {}),
      ...(warnings.length ? { warnings: [...(draft.warnings ?? []), ...warnings] } : {}),
    };
  };
}

function schemaNotices(type: string, result: Awaited<ReturnType<SchemaService['check']>>): string[] {
  const warnings = result.warnings.map((w) => w.message);
  if (result.schema?.errors.length) {
    warnings.push(
      `The metadata schema of note type '${type}' has faults, so some fields are not checked (see get_note_type_info): ${result.schema.errors.join('; ')}`,
    );
  }
  return warnings;
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
  return new ValidationError(
    `Metadata validation failed for note type '${type}': ${issues.map((i) => i.message).join('; ')}. Nothing was written.`,
    {
      type,
      field: first.field,
      rule: first.rule,
      ...(first.value !== undefined ? { value: first.value } : {}),
      fields: [...new Set(issues.map((i) => i.field))],
      errors: issues,
    },
  );
}
