/**
 * Long work (indexing, migration, sync) reports progress through this small interface; the
 * CLI renders it as a progress bar on stderr, the library and the server ignore it.
 */
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
