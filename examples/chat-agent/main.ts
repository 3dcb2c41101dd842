/**
 * A chat agent over notekernel (seed 004's agent and API server): `POST /chat` on 127.0.0.1,
 * a model behind any OpenAI-compatible endpoint, the vault's tools over MCP, and the user's
 * preferences in the system prompt. See README.md for running it against a local model.
 *   OPENAI_BASE_URL=http://127.0.0.1:8080/v1 OPENAI_MODEL=qwen2.5 node main.js --vault ~/Notes
 */
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTurn } from './agent.js';
import { readConfig, type AgentConfig } from './config.js';
import { createChatServer, type ChatHandler } from './http-api.js';
import { connectNotekernel, toToolDefinitions } from './notekernel-tools.js';
import { preferencesOf, type PreferencesSource } from './preferences.js';
import { Sessions } from './sessions.js';
import { systemPrompt } from './system-prompt.js';

export interface RunningAgent {
  url: string;
  tools: string[];
  preferences: PreferencesSource;
  /** Settles if the notekernel server goes away before `close()`: every tool call would fail. */
  serverGone: Promise<void>;
  close(): Promise<void>;
}

export async function startChatAgent(config: AgentConfig): Promise<RunningAgent> {
  const client = await connectNotekernel(config.server);
  let closing = false;
  const serverGone = new Promise<void>((resolve) => {
    client.onclose = () => {
      if (!closing) resolve();
    };
  });
  try {
    const { tools } = await client.listTools();
    const toolNames = tools.map((t) => t.name);
    const preferences = await preferencesOf(client, config.server.vault);
    const deps = { chat: config.chat, client, tools: toToolDefinitions(tools), maxSteps: config.maxSteps };
    const sessions = new Sessions();
    const handle: ChatHandler = async (session, message) => {
      const turn = await runTurn(deps, systemPrompt(await preferences.read(), toolNames), session.messages, message);
      session.messages.push(...turn.added);
      return { response: turn.answer, session_id: session.id, tool_calls: turn.toolCalls };
    };
    const server = createChatServer(sessions, handle);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, resolve);
    });
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://${config.host}:${port}`,
      tools: toolNames,
      preferences: preferences.source,
      serverGone,
      async close() {
        closing = true;
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await client.close();
      },
    };
  } catch (err) {
    closing = true;
    await client.close();
    throw err;
  }
}

async function main(): Promise<void> {
  const config = readConfig(process.argv.slice(2), process.env);
  const agent = await startChatAgent(config);
  console.error(
    `chat agent on ${agent.url}/chat — ${agent.tools.length} tools from notekernel (${config.server.profile}), preferences from ${JSON.stringify(agent.preferences)}, model ${config.chat.model} at ${config.chat.baseUrl}`,
  );
  const stop = () => void agent.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  void agent.serverGone.then(() => {
    console.error('the notekernel server stopped (its message, if any, is above); the chat agent stops too');
    void agent.close().then(() => process.exit(1));
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: Error) => {
    console.error(err.message);
    process.exit(1);
  });
}
