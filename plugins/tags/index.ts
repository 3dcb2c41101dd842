/**
 * tags: one tag index for every profile. Frontmatter `tags` and inline `#tags` (seed 002's
 * rules, parsed by the links plugin's scanner), `list_tags` with counts, `rename_tag` across
 * the vault, and the TAGS service that search uses for tag filters.
 */
import { z } from 'zod';
import { definePlugin, provide } from '../../kernel/plugin.js';
import { TAGS } from './service.js';
import { createMemoryTagStore, createSqliteTagStore } from './store.js';
import { TagIndex } from './tag-index.js';
import { listTagsTool } from './tools/list-tags.js';
import { renameTagTool } from './tools/rename-tag.js';

export { TAGS, type TagsService, type TagCount, type TagQuery } from './service.js';

export const tagsOptions = z
  .object({
    tools: z.boolean().default(true).describe('serve list_tags and rename_tag (the TAGS service is always provided)'),
  })
  .strict();

export type TagsOptions = z.infer<typeof tagsOptions>;

export const tagsPlugin = definePlugin<TagsOptions>({
  id: 'tags',
  description: 'Tags from frontmatter and inline #tags: counts, vault-wide rename, and tag filters for search.',
  config: tagsOptions as z.ZodType<TagsOptions>,
  register(ctx) {
    const options = tagsOptions.parse(ctx.options ?? {});
    const tags =
      ctx.store.indexDb && ctx.capabilities.has('index-db')
        ? createSqliteTagStore(ctx.store.indexDb, ctx.pluginId)
        : createMemoryTagStore();
    const index = new TagIndex({ tags, store: ctx.store, logger: ctx.logger });
    if (ctx.capabilities.has('index-db')) ctx.store.indexDb?.onRebuilt(() => index.invalidate());
    // Tags are extracted from the backend's own reads of each file, in its index pass.
    const stopObserving = ctx.store.observeIndexPass?.(index.indexPassObserver());
    return {
      services: [provide(TAGS, index)],
      tools: options.tools ? [listTagsTool(index), renameTagTool(index)] : [],
      hooks: index.hooks(),
      ...(stopObserving ? { dispose: stopObserving } : {}),
    };
  },
});
