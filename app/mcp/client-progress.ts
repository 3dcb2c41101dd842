/**
 * Routes a tool's progress (kernel/progress.ts) to `notifications/progress` when the client
 * asked for it with a progressToken. At most one notification per PROGRESS_INTERVAL_MS, plus
 * the first and the last, so a 2,000-note batch sends dozens, not thousands.
 */
import type { ProgressNotification, ProgressToken } from '@modelcontextprotocol/server';
import type { ProgressReporter } from '../../kernel/progress.js';

const PROGRESS_INTERVAL_MS = 100;

type Send = (notification: ProgressNotification) => Promise<void>;

/** A reporter whose notifications can be awaited: the last one must go out before the answer. */
export interface ClientProgress extends ProgressReporter {
  sent(): Promise<void>;
}

export function clientProgress(token: ProgressToken, send: Send): ClientProgress {
  let pending: Promise<void> = Promise.resolve();
  let label = '';
  let total = 0;
  let done = 0;
  let lastSent = 0;
  // Progress must increase with each notification, across several start()s in one call.
  let base = 0;
  let lastProgress = -1;
  const emit = (force: boolean) => {
    const now = Date.now();
    const progress = base + done;
    if (progress <= lastProgress || (!force && now - lastSent < PROGRESS_INTERVAL_MS)) return;
    lastSent = now;
    lastProgress = progress;
    const sending = send({
      method: 'notifications/progress',
      params: { progressToken: token, progress, total: base + total, message: `${label} ${done}/${total}` },
    }).catch(() => undefined);
    pending = pending.then(() => sending);
  };
  return {
    start(newLabel, newTotal) {
      base += done;
      label = newLabel;
      total = newTotal;
      done = 0;
      emit(true);
    },
    tick(count = 1) {
      done += count;
      emit(done >= total);
    },
    stop() {
      emit(true);
    },
    sent: () => pending,
  };
}
