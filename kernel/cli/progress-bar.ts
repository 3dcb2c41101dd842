/** Renders kernel progress as a bar on stderr (stdout stays clean for JSON and MCP). */
import { createRequire } from 'node:module';
import type cliProgressTypes from 'cli-progress';
import { noProgress, type ProgressReporter } from '../progress.js';

// Loaded on first use: most runs have nothing to report.
const require = createRequire(import.meta.url);

/** A bar on a terminal; nothing when stderr is a file or a pipe (a log, a CI run, an MCP client). */
export function progressBar(): ProgressReporter {
  if (!process.stderr.isTTY) return noProgress;
  let bar: cliProgressTypes.SingleBar | undefined;
  return {
    start(label, total) {
      const cliProgress = require('cli-progress') as typeof cliProgressTypes;
      bar = new cliProgress.SingleBar(
        {
          stream: process.stderr,
          format: `${label} [{bar}] {percentage}% | {value}/{total} | {eta_formatted} left`,
          noTTYOutput: true,
          notTTYSchedule: 2000,
          hideCursor: false,
        },
        cliProgress.Presets.shades_classic,
      );
      bar.start(total, 0);
    },
    tick(count = 1) {
      bar?.increment(count);
    },
    stop() {
      bar?.stop();
      bar = undefined;
    },
  };
}
