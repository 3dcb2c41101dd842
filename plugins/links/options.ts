import { z } from 'zod';

export const linksOptions = z
  .object({
    tools: z
      .boolean()
      .default(true)
      .describe(
        "serve the link tools (flint's get_note_links, get_backlinks, find_broken_links, search_by_links, migrate_links; get_link_graph, links_repair)",
      ),
    autoRepair: z
      .boolean()
      .default(false)
      .describe(
        'rewrite inbound links as soon as a note is found renamed or moved outside the server (otherwise links_repair does it on request)',
      ),
  })
  .strict();

export type LinksOptions = z.infer<typeof linksOptions>;
