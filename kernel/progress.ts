/**
 * Long work reports progress here: the CLI draws a bar, the MCP server sends
 * `notifications/progress` when the client asked, the library ignores it. A tool gets its call's
 * reporter as `ctx.progress`; code it reaches only indirectly (a hook, another plugin's service)
 * asks `callProgress()`.
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

export function withCallProgress<T>(reporter: ProgressReporter, work: () => Promise<T>): Promise<T> {
  return current.run(reporter, work);
}

/** The progress channel of the tool call this code runs under (one that ignores everything outside a call). */
export function callProgress(): ProgressReporter {
  return current.getStore() ?? noProgress;
}
