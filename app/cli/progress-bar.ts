/**
 * Renders kernel progress as a bar on stderr (stdout stays clean for JSON and MCP), on a
 * terminal only: piped to a file or read by an MCP client, stderr is a log, not a screen.
 */
import { createRequire } from 'node:module';
import type cliProgressTypes from 'cli-progress';
import { noProgress, type ProgressReporter } from '../../kernel/progress.js';

// Loaded on first use: most runs have nothing to report.
const require = createRequire(import.meta.url);

export function progressBar(stream: NodeJS.WriteStream = process.stderr): ProgressReporter {
  if (!stream.isTTY) return noProgress;
  let bar: cliProgressTypes.SingleBar | undefined;
  return {
    start(label, total) {
      const cliProgress = require('cli-progress') as typeof cliProgressTypes;
      bar = new cliProgress.SingleBar(
        {
          stream,
          format: `${label} [{bar}] {percentage}% | {value}/{total} | {eta_formatted} left`,
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
