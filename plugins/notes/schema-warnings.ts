/**
 * What a successful write reports back beside its result: metadata fields the type's schema
 * does not define (warnings unless strict_validation made them errors, in which case the write
 * was refused already) and a schema that has faults of its own.
 */
import type { Metadata } from '../../kernel/note.js';
import type { ToolContext } from '../../kernel/tool.js';
import { SCHEMA } from '../schema/service.js';
import { vaultConfig } from './config.js';

export async function schemaWarnings(ctx: ToolContext, type: string | undefined, metadata: Metadata, op: 'create' | 'update', changedKeys: readonly string[]): Promise<string[]> {
  const schema = ctx.tryResolve(SCHEMA);
  if (!schema || type === undefined || changedKeys.length === 0) return [];
  const config = await vaultConfig(ctx);
  const result = await schema.check({ type, metadata, op, changedKeys, strict: config.metadata.strict_validation });
  const warnings = result.warnings.map((w) => w.message);
  if (result.schema?.errors.length) {
    warnings.push(`The metadata schema of note type '${type}' has faults, so some fields are not checked (see get_note_type_info): ${result.schema.errors.join('; ')}`);
  }
  return warnings;
}

/** `{ warnings }` when there are any, else nothing: answers stay in the seed's shape when all is well. */
export function withWarnings(warnings: readonly string[]): { warnings?: string[] } {
  return warnings.length ? { warnings: [...warnings] } : {};
}
