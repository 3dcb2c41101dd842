/**
 * MCP over stdio. stdout carries only protocol frames; logs go to stderr or a file. The
 * returned promise settles once the client hangs up or a signal arrives, the calls in flight
 * have been answered (bounded by DRAIN_TIMEOUT_MS), and the vault has been flushed and closed.
 */
import type { ToolHost } from '../tool-host.js';
import { InFlight, DRAIN_TIMEOUT_MS } from './in-flight.js';
import { DEFAULT_MESSAGE_BYTES, describeBytes } from '../../kernel/message-limit.js';
import { createMcpServer } from './server.js';
import { LimitedStdioTransport } from './stdio-transport.js';

export async function serveStdio(
  vault: ToolHost,
  onShutdown: () => Promise<void>,
  maxMessageBytes = DEFAULT_MESSAGE_BYTES,
): Promise<void> {
  const inFlight = new InFlight();
  const server = createMcpServer(vault, { inFlight, maxMessageBytes });
  const transport = new LimitedStdioTransport(maxMessageBytes);
  // A message refused (too large, not JSON, no valid request) is worth a line in the log; the client got its error already.
  transport.onerror = (err) => vault.logger.warn({ err: err.message }, 'a message from the client could not be taken');
  let resolveDone!: () => void;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));
  let stopping = false;
  const stop = async (reason: string) => {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    vault.logger.info({ reason, inFlight: inFlight.size }, 'shutting down');
    try {
      const settled = await inFlight.drain(DRAIN_TIMEOUT_MS);
      if (!settled)
        vault.logger.warn(
          { inFlight: inFlight.size, ms: DRAIN_TIMEOUT_MS },
          'calls still running at shutdown were abandoned',
        );
      await answersWritten();
      await server.close();
    } finally {
      await onShutdown();
      vault.logger.info({ ms: Date.now() - started }, 'shut down');
      resolveDone();
    }
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.stdin.once('end', () => void stop('stdin ended'));
  process.stdin.once('close', () => void stop('stdin closed'));
  transport.onclose = () => void stop('transport closed');
  await server.connect(transport);
  vault.logger.info(
    { root: vault.info.root, profile: vault.info.profile, messageLimit: describeBytes(maxMessageBytes) },
    'serving MCP over stdio',
  );
  return done;
}

/**
 * A finished call's answer is written a few promise turns after its handler settles; let those
 * turns run, then wait for stdout to take what was written, before the transport closes.
 */
async function answersWritten(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  if (process.stdout.writableNeedDrain) await new Promise((resolve) => process.stdout.once('drain', resolve));
}
