/**
 * Long work (indexing, migration, sync, a rename rewriting links) reports progress through this
 * small interface; the CLI renders it as a progress bar on stderr, the MCP server forwards it as
 * `notifications/progress` when the client asked, the library ignores it.
 *
 * A tool gets its call's reporter as `ctx.progress`. Code the tool reaches only indirectly — a
 * hook handler run by a note write, a service another plugin provides — asks `callProgress()`,
 * which answers the reporter of the tool call it runs under (or one that ignores everything).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface ProgressReporter {
  start(label: string, total: number): void;
  tick(count?: number): void;
  stop(): void;
}

export const noProgress: ProgressReporter = {
  start() {},
  tick() {},
  stop() {},
};

const current = new AsyncLocalStorage<ProgressReporter>();

/** Runs `work` with `reporter` as the progress channel of everything it calls. */
export function withCallProgress<T>(reporter: ProgressReporter, work: () => Promise<T>): Promise<T> {
  return current.run(reporter, work);
}

/** The progress channel of the tool call this code runs under. */
export function callProgress(): ProgressReporter {
  return current.getStore() ?? noProgress;
}
