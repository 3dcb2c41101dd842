/**
 * simplenote-tools (seed 003, MCP Notarium): `list`, `get`, `save` and `manage` with the seed's
 * schemas and shapes, over any store with `remote-sync` and a `full-text` index — the
 * simplenote backend in the notarium profile. It reaches the store only through the kernel's
 * contracts (NoteService for reads and writes, SEARCH_INDEX, NoteStore.remote).
 */
import { definePlugin } from '../../kernel/plugin.js';
import { getTool } from './tools/get.js';
import { listTool } from './tools/list.js';
import { manageTool } from './tools/manage.js';
import { saveTool } from './tools/save.js';

export const simplenoteToolsPlugin = definePlugin({
  id: 'simplenote-tools',
  description:
    "Seed 003's tools over a synchronised remote store: list (cache, FTS), get, save (line patches, versions), manage (trash, delete, stats, sync).",
  requires: ['remote-sync', 'full-text'],
  register(ctx) {
    return { tools: [listTool, getTool, saveTool, manageTool(ctx.store, ctx.vault.storageBackend)] };
  },
});
