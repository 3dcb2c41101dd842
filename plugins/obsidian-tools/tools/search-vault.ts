import { z } from 'zod';
import { SEARCH_MODES, type SearchIndex } from '../../../kernel/backend.js';
import type { ProgressReporter } from '../../../kernel/progress.js';
import { CapabilityError } from '../../../kernel/errors.js';
import { SEARCH_INDEX } from '../../../kernel/tokens.js';
import { defineTool } from '../../../kernel/tool.js';
import { num, str } from '../../../toolkit/tool-output.js';

/**
 * The longest `wait_for_vectors` waits, by default: an MCP client gives up on a call after 60 s
 * unless told otherwise (the SDK's default request timeout, progress or not), and the search
 * itself comes after the wait.
 */
export const DEFAULT_WAIT_FOR_VECTORS_SECONDS = 40;

/**
 * Waits for the index's background embedding, at most `ms`: true when every vector is there.
 * Progress goes to `progress` until the wait ends; what the embedding does after a cut-off is
 * not reported (the call has been answered: a late notification would name a finished request).
 */
async function waitForVectors(index: SearchIndex, progress: ProgressReporter, ms: number): Promise<boolean> {
  let open = true;
  const gated: ProgressReporter = {
    start: (label, total) => open && progress.start(label, total),
    tick: (count) => open && progress.tick(count),
    stop: () => open && progress.stop(),
  };
  const finished = (index.finishBackground?.(gated) ?? Promise.resolve()).then(() => true);
  finished.catch(() => undefined); // a failure after the cut-off belongs to no call
  let timer: NodeJS.Timeout | undefined;
  const cutOff = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
    timer.unref();
  });
  const done = await Promise.race([finished, cutOff]).finally(() => clearTimeout(timer));
  open = false;
  if (!done) progress.stop(); // cut off: the last count sent stands
  return done;
}

export const searchVault = (waitSeconds: number = DEFAULT_WAIT_FOR_VECTORS_SECONDS) =>
  defineTool({
    name: 'search_vault',
    description:
      'Search the vault. mode "hybrid" (default) fuses meaning (sentence vectors) and exact words by Reciprocal Rank Fusion; "semantic" finds notes by meaning even when no word is shared; "keyword" matches words exactly, notes holding every word first, then those holding some. Returns the best n_results notes, each with its path (source), the passage that matched (content) and a score.',
    input: z.object({
      query: z.string().trim().min(1).max(2_000).describe('what to look for, in plain words or a question'),
      n_results: z.number().int().min(1).max(50).default(5).describe('how many notes to return'),
      mode: z.enum(SEARCH_MODES).default('hybrid').describe('hybrid fuses semantic and keyword ranks'),
      wait_for_vectors: z
        .boolean()
        .default(false)
        .describe(
          `semantic/hybrid: first wait until every passage has its vector, at most ${waitSeconds} s (progress sent if asked)`,
        ),
    }),
    output: z.object({
      query: str,
      mode: str,
      results: z.array(z.object({ source: str, content: str, score: num })),
      total: num,
      notice: str.optional(),
      vectors: z.object({ ready: num, total: num }).optional(),
    }),
    annotations: { title: 'Search the vault', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async handler(args, ctx) {
      const index = ctx.tryResolve(SEARCH_INDEX);
      if (!index)
        throw new CapabilityError('search_vault needs a search index; this vault has none.', {
          capability: 'full-text',
        });
      // The wait reports on the call's progress channel (MCP notifications/progress when asked for)
      // and ends in time for the client: an answer from the vectors ready, saying so, beats a timeout.
      const waited =
        args.wait_for_vectors && args.mode !== 'keyword'
          ? await waitForVectors(index, ctx.progress, waitSeconds * 1000)
          : undefined;
      const page = await index.search({ text: args.query, limit: args.n_results, mode: args.mode });
      return {
        query: args.query,
        mode: args.mode,
        results: page.hits.map((hit) => ({ source: hit.id, content: hit.snippet, score: hit.score })),
        total: page.total,
        // While vectors are still being built the ranking by meaning saw only part of the vault;
        // without `vectors` the notice is another (the embedder is down): waiting would not help.
        ...(page.notice && page.vectors
          ? {
              notice: `${page.notice} ${waited === false ? `Waited ${waitSeconds} s (the most one call waits, inside a client's 60 s timeout); call again with wait_for_vectors: true to wait for the rest.` : 'Pass wait_for_vectors: true to wait for the rest.'}`,
              vectors: page.vectors,
            }
          : {}),
        ...(page.notice && !page.vectors ? { notice: page.notice } : {}),
      };
    },
  });
