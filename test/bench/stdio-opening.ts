/**
 * A spawned MCP server's first answer, timed from spawn, in either era's opening. The bench writes
 * the JSON-RPC lines itself rather than through the SDK client: a 2026-07-28 client that knows the
 * revision opens with its first request (no `server/discover` round trip), which is what is timed,
 * and both eras then pay the same client-side cost.
 */
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { mainThreadCpuMs } from './stats.js';

export type Opening = 'legacy' | 'modern';

const LEGACY_REVISION = '2025-11-25';
const MODERN_REVISION = '2026-07-28';
const CLIENT_INFO = { name: 'bench', version: '1' };
/** A server that has not answered by then is broken, not slow. */
const ANSWER_TIMEOUT_MS = 30_000;

interface Reply {
  id?: number;
  result?: { isError?: boolean; content?: Array<{ type: string; text?: string }> };
  error?: { code: number; message: string };
}

/**
 * Spawn → the first `get_note` answer, and the server's main-thread CPU time at that answer.
 * 'legacy': initialize, its answer, initialized, tools/call (what a 2025 client sends). 'modern':
 * one tools/call carrying the 2026-07-28 `_meta` envelope. Throws unless the answer is a note.
 */
export async function firstAnswer(
  args: string[],
  opening: Opening,
  noteId: string,
): Promise<{ ms: number; cpu: number }> {
  const start = performance.now();
  // The environment an MCP client gives its server (the SDK passes on HOME, PATH, SHELL, TERM, USER, LOGNAME).
  const child = spawn(process.execPath, args, { env: getDefaultEnvironment(), stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const waiting = new Map<number, (reply: Reply) => void>();
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    const reply = JSON.parse(line) as Reply;
    if (reply.id !== undefined) waiting.get(reply.id)?.(reply);
  });
  const closed = new Promise<true>((resolve) => child.once('close', () => resolve(true)));
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before answering: ${stderr.trim()}`))),
  );
  // Raced by each wait; an exit after the answer (stdin closed below) is no failure.
  exited.catch(() => undefined);
  const send = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  const answer = (id: number): Promise<Reply> => {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer to request ${id}: ${stderr.trim()}`)), ANSWER_TIMEOUT_MS);
    });
    const replied = new Promise<Reply>((resolve) => waiting.set(id, resolve));
    return Promise.race([replied, exited, timedOut]).finally(() => clearTimeout(timer));
  };
  try {
    if (opening === 'legacy') {
      send({
        id: 0,
        method: 'initialize',
        params: { protocolVersion: LEGACY_REVISION, capabilities: {}, clientInfo: CLIENT_INFO },
      });
      checked(await answer(0), 'initialize');
      send({ method: 'notifications/initialized' });
    }
    const envelope = {
      'io.modelcontextprotocol/protocolVersion': MODERN_REVISION,
      'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    send({
      id: 1,
      method: 'tools/call',
      params: {
        name: 'get_note',
        arguments: { identifier: noteId },
        ...(opening === 'modern' ? { _meta: envelope } : {}),
      },
    });
    const reply = checked(await answer(1), 'tools/call');
    const ms = performance.now() - start;
    const cpu = mainThreadCpuMs(child.pid);
    const text = reply.result?.content?.[0]?.text;
    if (reply.result?.isError || !text) throw new Error(`get_note answered without the note: ${JSON.stringify(reply)}`);
    return { ms, cpu };
  } finally {
    child.stdin.end();
    if (!(await Promise.race([closed, delay(5_000)]))) child.kill();
    await closed;
  }
}

function checked(reply: Reply, method: string): Reply {
  if (reply.error) throw new Error(`${method} failed: ${reply.error.code} ${reply.error.message}`);
  return reply;
}

function delay(ms: number): Promise<false> {
  return new Promise((resolve) => setTimeout(() => resolve(false), ms));
}
