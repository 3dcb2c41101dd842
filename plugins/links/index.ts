/**
 * links: one link graph for every profile. Parses wikilinks, embeds, id__ links, markdown links
 * and URLs (toolkit/markdown), resolves them by title, then filename, keeps broken links
 * until a matching note appears, and rewrites inbound links on renames and moves. On backends
 * with `index-db` the links live in seed 000's `note_links` / `external_links` tables.
 */
import path from 'node:path';
import type { z } from 'zod';
import { requireMember } from '../../kernel/backend.js';
import { definePlugin, provide } from '../../kernel/plugin.js';
import { linksRepairCommand } from './cli.js';
import { linksOptions, type LinksOptions } from './options.js';
import { LinksRuntime } from './runtime.js';
import { LINK_INDEX, LINKS } from './service.js';
import { createMemoryLinkStore } from './store/memory.js';
import { createSqliteLinkStore } from './store/sqlite.js';
import { withDurableFormers } from './store/durable-formers.js';
import { linkTools } from './tools/index.js';

export { LINKS, LINK_INDEX } from './service.js';
export type {
  LinksService,
  LinkIndexService,
  LinkRef,
  LinkRewriteReport,
  LinkRepairReport,
  LinkGraph,
} from './service.js';

/** Beside the index, in the vault's metadata folder. */
const FORMER_NAMES_FILE = 'links-former-names.json';

export const linksPlugin = definePlugin<LinksOptions>({
  id: 'links',
  description:
    'Links between notes: backlinks, broken links, link graph, and renames and moves that never break a link.',
  config: linksOptions as z.ZodType<LinksOptions>,
  commands: [
    {
      name: 'links-repair',
      summary: 'rewrite links to notes renamed or moved outside the server',
      options: [
        { flags: '--note <id>', description: 'repair only the links to this note' },
        { flags: '--dry-run', description: 'show the rewrites, write nothing' },
        { flags: '--json', description: 'print the report as JSON' },
      ],
    },
  ],
  register(ctx) {
    const options = linksOptions.parse(ctx.options ?? {});
    const indexDb = ctx.capabilities.has('index-db')
      ? requireMember(ctx.store.indexDb, ctx.vault.storageBackend, 'index-db', 'links')
      : undefined;
    const durable = indexDb
      ? withDurableFormers(
          createSqliteLinkStore(indexDb, ctx.pluginId),
          path.join(indexDb.folder, FORMER_NAMES_FILE),
          ctx.logger,
        )
      : undefined;
    durable?.restore();
    const links = durable ?? createMemoryLinkStore();
    const runtime = new LinksRuntime({
      links,
      store: ctx.store,
      notes: ctx.notes,
      logger: ctx.logger,
      readOnly: ctx.vault.readOnly,
      autoRepair: options.autoRepair,
    });
    // A damaged index rebuilt from the files comes back without links: extract them again.
    indexDb?.onRebuilt(() => {
      durable?.restore();
      void runtime
        .reconcile()
        .catch((err: unknown) => ctx.logger.error({ err }, 'links: reconcile after the index rebuild failed'));
    });
    // Links are extracted from the backend's own reads of each file, in its index pass.
    const stopObserving = ctx.store.observeIndexPass?.(runtime.indexPassObserver());
    runtime.start((report) =>
      ctx.logger.info(
        {
          storage: links.kind,
          scanned: report.scanned,
          extracted: report.extracted,
          removed: report.removed,
          moved: report.moved.length,
          ms: report.ms,
        },
        'links index ready',
      ),
    );
    return {
      services: [provide(LINKS, runtime), provide(LINK_INDEX, runtime)],
      tools: options.tools ? linkTools(runtime) : [],
      hooks: runtime.hooks(),
      cli: [linksRepairCommand(runtime, ctx.store)],
      dispose: async () => {
        stopObserving?.();
        await runtime.close();
        // A former-names write still in flight lands before the vault counts as closed.
        await durable?.flushed();
      },
    };
  },
});
