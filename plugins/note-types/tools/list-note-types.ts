import fs from 'node:fs/promises';
import { z } from 'zod';
import type { NoteStore } from '../../../kernel/backend.js';
import { defineTool } from '../../../kernel/tool.js';
import { vaultIdField } from '../../../toolkit/tool-fields.js';
import type { NoteTypes } from '../service.js';
import { bool, nullableStr, num, str, strs } from '../../../toolkit/tool-output.js';

/** seed 000's list_note_types rows; also the body of the flint-note://types resource. */
export async function noteTypeRows(types: NoteTypes, store: NoteStore) {
  const infos = await types.list();
  return Promise.all(
    infos.map(async (info) => ({
      name: info.name,
      path: info.path,
      purpose: info.description.purpose,
      agentInstructions: info.description.agentInstructions,
      hasDescription: info.hasDescription,
      noteCount: await store.count({ type: info.name }),
      lastModified: await lastModified(info.path),
      ...(info.unreadable ? { unreadable: info.unreadable } : {}),
    })),
  );
}

export function listNoteTypesTool(types: NoteTypes, store: NoteStore) {
  return defineTool({
    name: 'list_note_types',
    description: 'All note types with their purpose, agent instructions and note counts.',
    input: z.object({ vault_id: vaultIdField }),
    output: z.object({
      result: z.array(
        z.object({
          name: str,
          path: str,
          purpose: str,
          agentInstructions: strs,
          hasDescription: bool,
          noteCount: num,
          lastModified: nullableStr,
          unreadable: str.optional(),
        }),
      ),
    }),
    annotations: { title: 'List note types', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async handler() {
      return noteTypeRows(types, store);
    },
  });
}

async function lastModified(folder: string): Promise<string | null> {
  try {
    return (await fs.stat(folder)).mtime.toISOString();
  } catch {
    return null;
  }
}
