/**
 * Real MCP clients (the SDK's own, v2) against the built `notekernel serve`, over stdio or HTTP.
 * Every helper takes an era: 'legacy' (the default) runs the 2025 `initialize` handshake; 'modern'
 * pins the 2026-07-28 revision (`server/discover`) with no fallback, so a test written for the new
 * revision cannot pass on the old handshake.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { assertBuilt, CLI } from './cli.js';

export type Era = 'legacy' | 'modern';
export const MODERN_REVISION = '2026-07-28';

export interface ClientOptions {
  /** 'legacy' unless said otherwise. */
  era?: Era;
  /** The name the client gives the server in its handshake. */
  name?: string;
}

/** An SDK client, not yet connected, that speaks the given era. */
export function newClient({ era = 'legacy', name = 'notekernel-e2e' }: ClientOptions = {}): Client {
  return new Client(
    { name, version: '1.0.0' },
    era === 'modern' ? { versionNegotiation: { mode: { pin: MODERN_REVISION } } } : {},
  );
}

/**
 * The SDK's stdio transport, except that a modern connect probes `server/discover` on the session's
 * own process. The base class probes on a second process spawned from the same command (for servers
 * that exit on a request before `initialize`); ours would open the same vault twice, the probe's
 * copy killed while it may still be writing an empty vault's default content.
 */
class InPlaceProbeStdioTransport extends StdioClientTransport {}

export interface ToolAnswer {
  isError: boolean;
  body: unknown;
}

export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as Array<{ type: string; text?: string }>;
  const text = content.find((c) => c.type === 'text')?.text ?? 'null';
  return { isError: result.isError === true, body: JSON.parse(text) as unknown };
}

export interface StdioSession {
  client: Client;
  stderr(): string;
  pid(): number | null;
  close(): Promise<void>;
}

/** The built `notekernel` with these arguments, over stdio. */
export async function connectStdio(
  args: string[],
  env: Record<string, string> = {},
  options: ClientOptions = {},
): Promise<StdioSession> {
  assertBuilt();
  return connectCommand(process.execPath, [CLI, ...args], env, options);
}

/** Any command spawned as an MCP server over stdio, its stderr kept for the test's messages. */
export async function connectCommand(
  command: string,
  args: string[],
  env: Record<string, string> = {},
  options: ClientOptions = {},
): Promise<StdioSession> {
  const Transport = options.era === 'modern' ? InPlaceProbeStdioTransport : StdioClientTransport;
  const transport = new Transport({
    command,
    args,
    env: { ...(process.env as Record<string, string>), NOTEKERNEL_LOG_LEVEL: 'info', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = newClient(options);
  await client.connect(transport);
  return { client, stderr: () => stderr, pid: () => transport.pid, close: () => client.close() };
}

export interface HttpServerProcess {
  url: string;
  child: ChildProcess;
  stderr(): string;
  stop(): Promise<number | null>;
}

/** Starts `notekernel serve --http` and waits for the line that names its URL. */
export async function startHttpServer(args: string[], env: Record<string, string> = {}): Promise<HttpServerProcess> {
  assertBuilt();
  const child = spawn(process.execPath, [CLI, 'serve', '--http', '--port', '0', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${stderr}`)), 20_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /MCP on (http:\/\/\S+)/.exec(stderr);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${stderr}`));
    });
  });
  return {
    url,
    child,
    stderr: () => stderr,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
}

export interface HttpClientOptions extends ClientOptions {
  /** Sent as `Authorization: Bearer <token>` on every request. */
  token?: string;
}

export async function connectHttp(url: string, { token, ...options }: HttpClientOptions = {}): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    ...(token ? { requestInit: { headers: { Authorization: `Bearer ${token}` } } } : {}),
  });
  const client = newClient({ name: 'notekernel-e2e-http', ...options });
  await client.connect(transport);
  return client;
}

/** A tool's answer body; a tool error fails the test with the tool's name and the error. */
export async function callOk<T>(session: { client: Client }, name: string, args: Record<string, unknown>): Promise<T> {
  const answer = await callTool(session.client, name, args);
  if (answer.isError) throw new Error(`${name}: ${JSON.stringify(answer.body)}`);
  return answer.body as T;
}
