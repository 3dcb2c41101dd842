/**
 * schema's public face: SCHEMA, a note type's metadata schema as one field model, whichever way
 * it was written, as types and a token only (decision 041). note-types' tools meet the same
 * service through note-types' own SCHEMA_CODEC port; notes (create/update warnings,
 * analyze_note) resolve SCHEMA. The service itself is built in type-schemas.ts.
 */
import { token } from '../../kernel/container.js';
import type { Metadata } from '../../kernel/note.js';
import type { SchemaCodec } from '../note-types/service.js';
import type { TypeSchema } from '../../toolkit/metadata-fields.js';
import type { CheckResult } from './validate.js';

// The field model the contract speaks in is toolkit/metadata-fields.ts, which no plugin owns.
export type { FieldIssue, Rule, CheckResult } from './validate.js';

export interface SchemaCheckRequest {
  type: string;
  metadata: Metadata;
  op: 'create' | 'update';
  changedKeys: readonly string[];
  strict: boolean;
}

export interface SchemaService extends SchemaCodec {
  /** The type's schema (fields, errors, warnings); undefined when the type does not exist. */
  forType(type: string): Promise<TypeSchema | undefined>;
  /** Checks metadata against the type's schema without writing; no schema → nothing to report. */
  check(request: SchemaCheckRequest): Promise<CheckResult & { schema?: TypeSchema }>;
}

export const SCHEMA = token<SchemaService>('schema.service');
