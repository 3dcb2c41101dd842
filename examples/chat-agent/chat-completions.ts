/**
 * The OpenAI chat-completions wire format, as far as a tool-calling agent needs it, and one
 * request over fetch. Any server that speaks it works: llama.cpp's llama-server, Ollama,
 * vLLM, LM Studio, Fireworks, OpenAI.
 */
import type { ChatEndpoint } from './config.js';

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export type AssistantMessage = Extract<ChatMessage, { role: 'assistant' }>;

export interface ToolDefinition {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

export interface CompletionRequest {
  messages: ChatMessage[];
  tools: ToolDefinition[];
  /** 'none' asks for an answer in words (the step cap is reached). */
  toolChoice: 'auto' | 'none';
}

/** The endpoint failed or answered something that is not a chat completion. */
export class ChatEndpointError extends Error {
  override readonly name = 'ChatEndpointError';
}

export async function complete(
  endpoint: ChatEndpoint,
  request: CompletionRequest,
  signal?: AbortSignal,
): Promise<AssistantMessage> {
  const url = `${endpoint.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const body = {
    model: endpoint.model,
    messages: request.messages,
    ...(request.tools.length > 0 ? { tools: request.tools, tool_choice: request.toolChoice } : {}),
  };
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}),
      },
      body: JSON.stringify(body),
      ...(signal ? { signal } : {}),
    });
  } catch (err) {
    throw new ChatEndpointError(`the chat endpoint ${url} cannot be reached: ${(err as Error).message}`);
  }
  const text = await response.text();
  if (!response.ok)
    throw new ChatEndpointError(`the chat endpoint ${url} answered ${response.status}: ${text.slice(0, 500)}`);
  const message = parseMessage(text);
  if (!message)
    throw new ChatEndpointError(`the chat endpoint ${url} answered without choices[0].message: ${text.slice(0, 500)}`);
  return message;
}

/**
 * The first choice's message, or undefined for anything else. Tool calls are put in the shape
 * OpenAI sends (some servers give `arguments` as an object or leave out `id`), since they go
 * back to the endpoint in the history.
 */
export function parseMessage(text: string): AssistantMessage | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const message = (json as { choices?: Array<{ message?: { content?: unknown; tool_calls?: unknown } }> }).choices?.[0]
    ?.message;
  if (!message || typeof message !== 'object') return undefined;
  const toolCalls = Array.isArray(message.tool_calls) ? message.tool_calls.flatMap(toToolCall) : [];
  return {
    role: 'assistant',
    content: typeof message.content === 'string' ? message.content : null,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  };
}

function toToolCall(raw: unknown, index: number): ToolCall[] {
  const call = raw as { id?: unknown; function?: { name?: unknown; arguments?: unknown } } | null;
  const name = call?.function?.name;
  if (typeof name !== 'string') return [];
  const args = call?.function?.arguments;
  return [
    {
      id: typeof call?.id === 'string' && call.id ? call.id : `call_${index}`,
      type: 'function',
      function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}) },
    },
  ];
}
