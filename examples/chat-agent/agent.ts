/**
 * One turn of the conversation: the model answers or asks for tools; the tools run over MCP
 * and their answers go back, until the model answers in words or the step cap is reached.
 */
import type { Client } from '@modelcontextprotocol/client';
import { complete, type ChatMessage, type ToolDefinition } from './chat-completions.js';
import type { ChatEndpoint } from './config.js';
import { runToolCall } from './notekernel-tools.js';

export interface AgentDeps {
  chat: ChatEndpoint;
  client: Client;
  tools: ToolDefinition[];
  maxSteps: number;
}

export interface ToolCallRecord {
  name: string;
  arguments: unknown;
  is_error: boolean;
}

export interface TurnResult {
  answer: string;
  /** The user's message and everything the turn added after it, for the session's history. */
  added: ChatMessage[];
  toolCalls: ToolCallRecord[];
}

export async function runTurn(
  deps: AgentDeps,
  system: string,
  history: readonly ChatMessage[],
  message: string,
): Promise<TurnResult> {
  const added: ChatMessage[] = [{ role: 'user', content: message }];
  const toolCalls: ToolCallRecord[] = [];
  for (let step = 0; ; step++) {
    // Past the cap the model still gets the tools' descriptions (the history refers to them) but may not call them.
    const toolChoice = step < deps.maxSteps ? 'auto' : 'none';
    const reply = await complete(deps.chat, {
      messages: [{ role: 'system', content: system }, ...history, ...added],
      tools: deps.tools,
      toolChoice,
    });
    if (!reply.tool_calls || toolChoice === 'none') {
      // A model that still asks for tools here is answered with what it said in words.
      const { tool_calls: _ignored, ...words } = reply;
      added.push(words);
      return { answer: reply.content ?? '', added, toolCalls };
    }
    added.push(reply);
    for (const call of reply.tool_calls) {
      const outcome = await runToolCall(deps.client, call);
      toolCalls.push({ name: call.function.name, arguments: outcome.arguments, is_error: outcome.isError });
      added.push({ role: 'tool', tool_call_id: call.id, content: outcome.text });
    }
  }
}
