/**
 * The notekernel side: one MCP client over stdio (shared by every session, as in the seed),
 * its tools offered to the model as OpenAI function definitions, and the model's calls run.
 */
import { Client, type Tool } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { ToolCall, ToolDefinition } from './chat-completions.js';
import type { NotekernelServer } from './config.js';

export interface ToolOutcome {
  /** What the model reads back: the tool's text, or why it failed. */
  text: string;
  isError: boolean;
}

export async function connectNotekernel(server: NotekernelServer): Promise<Client> {
  const [program, ...prefix] = server.command;
  if (!program) throw new Error('the notekernel server command is empty');
  const transport = new StdioClientTransport({
    command: program,
    args: [...prefix, 'serve', '--profile', server.profile, '--vault', server.vault],
    stderr: 'inherit',
  });
  const client = new Client({ name: 'notekernel-chat-agent', version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (err) {
    const shown = [...server.command, 'serve', '--profile', server.profile, '--vault', server.vault].join(' ');
    throw new Error(
      `cannot start the notekernel MCP server (${shown}): ${(err as Error).message}. Install it (npm install -g notekernel) or name it with --server-command; its own message, if any, is above.`,
    );
  }
  return client;
}

export function toToolDefinitions(tools: readonly Tool[]): ToolDefinition[] {
  return tools.map((tool) => {
    // Some OpenAI-compatible servers refuse JSON Schema's `$schema` key inside `parameters`.
    const { $schema: _unused, ...parameters } = tool.inputSchema as Record<string, unknown>;
    return {
      type: 'function',
      function: { name: tool.name, ...(tool.description ? { description: tool.description } : {}), parameters },
    };
  });
}

/** Runs one call of the model's; every failure becomes text the model can read and act on. */
export async function runToolCall(client: Client, call: ToolCall): Promise<ToolOutcome & { arguments: unknown }> {
  let args: unknown;
  try {
    args = call.function.arguments.trim() === '' ? {} : JSON.parse(call.function.arguments);
  } catch {
    return {
      arguments: call.function.arguments,
      isError: true,
      text: `The arguments of ${call.function.name} are not valid JSON: ${call.function.arguments}`,
    };
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    return { arguments: args, isError: true, text: `The arguments of ${call.function.name} must be a JSON object.` };
  }
  try {
    const result = await client.callTool({ name: call.function.name, arguments: args as Record<string, unknown> });
    const blocks = (result.content ?? []) as Array<{ type: string; text?: string }>;
    const text = blocks.map((block) => (block.type === 'text' ? (block.text ?? '') : JSON.stringify(block))).join('\n');
    return { arguments: args, isError: result.isError === true, text };
  } catch (err) {
    // A protocol error: an unknown tool or arguments the server could not take at all.
    return { arguments: args, isError: true, text: `Calling ${call.function.name} failed: ${(err as Error).message}` };
  }
}
