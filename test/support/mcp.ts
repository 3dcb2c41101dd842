/** Real MCP clients (the SDK's own) against the built `notekernel serve`, over stdio or HTTP. */
import { spawn, type ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { assertBuilt, CLI } from './cli.js';

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

export async function connectStdio(args: string[], env: Record<string, string> = {}): Promise<StdioSession> {
  assertBuilt();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, ...args],
    env: { ...(process.env as Record<string, string>), NOTEKERNEL_LOG_LEVEL: 'info', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'notekernel-e2e', version: '1.0.0' });
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

export async function connectHttp(url: string, token?: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    ...(token ? { requestInit: { headers: { Authorization: `Bearer ${token}` } } } : {}),
  });
  const client = new Client({ name: 'notekernel-e2e-http', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** A tool's answer body; a tool error fails the test with the tool's name and the error. */
export async function callOk<T>(session: { client: Client }, name: string, args: Record<string, unknown>): Promise<T> {
  const answer = await callTool(session.client, name, args);
  if (answer.isError) throw new Error(`${name}: ${JSON.stringify(answer.body)}`);
  return answer.body as T;
}
