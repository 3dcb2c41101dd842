/**
 * schema: metadata schemas for note types. Reads `## Metadata Schema` bullets (and the JSON
 * form tools pass) into one field model, serves it as SCHEMA, and checks every create and
 * update in `note.beforeWrite`. A malformed schema never stops a type from loading: its
 * faults are reported by get_note_type_info and analyze_note, and the sound fields still apply.
 */
import { definePlugin, provide } from '../../kernel/plugin.js';
import { NOTE_TYPES, SCHEMA_CODEC } from '../note-types/service.js';
import { DEFAULT_VAULT_CONFIG } from '../../toolkit/vault-config.js';
import { VAULT_CONFIG } from '../vault-config/service.js';
import { schemaBeforeWrite } from './hook.js';
import { SCHEMA } from './service.js';
import { createSchemaService } from './type-schemas.js';

export * from './service.js';

export const schemaPlugin = definePlugin<Record<string, never>>({
  id: 'schema',
  description:
    'Metadata schemas per note type: required fields, types, min/max, patterns, options, defaults; checked before every write.',
  dependsOn: ['note-types'],
  requires: ['free-metadata'],
  register(ctx) {
    const schema = createSchemaService(ctx.resolve(NOTE_TYPES));
    // Resolved per write, not at registration: the config plugin is optional and may load later.
    const config = async () => (await ctx.tryResolve(VAULT_CONFIG)?.get()) ?? DEFAULT_VAULT_CONFIG;
    return {
      // note-types' tools read and write schemas through their own port: the same service fills it.
      services: [provide(SCHEMA, schema), provide(SCHEMA_CODEC, schema)],
      hooks: { 'note.beforeWrite': schemaBeforeWrite({ schema, config }) },
    };
  },
});
