/**
 * MCP over stdio. stdout carries only protocol frames; logs go to stderr or a file. The
 * connection's opening picks its era (the SDK's serveStdio): `initialize` pins a 2025 instance,
 * a request carrying the 2026-07-28 envelope a modern one (`server/discover` alone is a probe). The returned
 * promise settles once the client hangs up or a signal arrives, the calls in flight have been
 * answered (bounded by DRAIN_TIMEOUT_MS), and the vault has been flushed and closed.
 */
import { serveStdio as serveSdkStdio } from '@modelcontextprotocol/server/stdio';
import type { ToolHost } from '../tool-host.js';
import { InFlight, DRAIN_TIMEOUT_MS } from './in-flight.js';
import { DEFAULT_MESSAGE_BYTES, describeBytes } from '../../kernel/message-limit.js';
import { ResourceChanges } from './resource-changes.js';
import { createMcpServer } from './server.js';
import { vaultSkills } from './skills/index.js';
import { LimitedStdioTransport } from './stdio-transport.js';

export async function serveStdio(
  vault: ToolHost,
  onShutdown: () => Promise<void>,
  maxMessageBytes = DEFAULT_MESSAGE_BYTES,
): Promise<void> {
  const inFlight = new InFlight();
  const changes = new ResourceChanges(vault);
  const skills = vaultSkills(vault);
  const transport = new LimitedStdioTransport(maxMessageBytes);
  // A message refused (too large, not JSON, no valid request) is worth a line in the log; the client got its error already.
  transport.onrefused = (err) =>
    vault.logger.warn({ err: err.message }, 'a message from the client could not be taken');
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
      changes.close();
      await served.close();
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
  const served = serveSdkStdio(
    ({ era }) => createMcpServer(vault, { inFlight, maxMessageBytes, era, changes, skills }),
    {
      transport,
      onerror: (err) => vault.logger.warn({ err: err.message }, 'a message from the client could not be served'),
    },
  );
  // After serveStdio took the transport: it sets its own onclose, which this one wraps.
  const sdkOnClose = transport.onclose;
  transport.onclose = () => {
    sdkOnClose?.();
    void stop('transport closed');
  };
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
