/**
 * The MCP adapter over `vault.call()`. It uses the SDK's low-level Server on purpose: tools
 * are validated once, by our own invoke(), and every tool failure (bad arguments included)
 * becomes an `isError` result whose JSON body carries the stable error code, rather than a
 * protocol error the agent cannot read.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { NotFoundError, toNotekernelError } from '../../kernel/errors.js';
import type { ToolHost } from '../../kernel/tool-host.js';
import { VERSION } from '../../kernel/version.js';

export function renderResult(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value ?? null, null, 2) }] };
}

export function renderError(err: unknown): CallToolResult {
  const error = toNotekernelError(err);
  return { content: [{ type: 'text', text: JSON.stringify(error.toBody(), null, 2) }], isError: true };
}

/**
 * The SDK's validator compiles Ajv's meta-schemas when constructed (~10 ms of every start), and
 * the server only uses it to check an elicitation answer, which no notekernel tool asks for:
 * built on first use instead.
 */
function lazyValidator(): jsonSchemaValidator {
  let ajv: AjvJsonSchemaValidator | undefined;
  return {
    getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
      return (ajv ??= new AjvJsonSchemaValidator()).getValidator<T>(schema);
    },
  };
}

export function createMcpServer(vault: ToolHost): Server {
  const server = new Server(
    { name: 'notekernel', version: VERSION },
    {
      jsonSchemaValidator: lazyValidator(),
      capabilities: { tools: {}, resources: {}, prompts: {} },
      instructions: `notekernel serving vault "${vault.info.id}" (profile ${vault.info.profile}). Read a note before updating it and pass its content_hash.`,
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: vault.tools().map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema as { type: 'object'; [key: string]: unknown },
      annotations: tool.annotations,
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    try {
      return renderResult(await vault.call(request.params.name, request.params.arguments ?? {}));
    } catch (err) {
      return renderError(err);
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: vault.resources().map((r) => ({ uri: r.uri, name: r.name, description: r.description, mimeType: r.mimeType ?? 'application/json' })),
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri;
    const resource = vault.resources().find((r) => r.uri === uri);
    if (!resource) throw new NotFoundError(`Unknown resource "${uri}".`);
    const value = await vault.readResource(uri);
    return { contents: [{ uri, mimeType: resource.mimeType ?? 'application/json', text: typeof value === 'string' ? value : JSON.stringify(value, null, 2) }] };
  });

  server.setRequestHandler(ListPromptsRequestSchema, async () => ({
    prompts: vault.prompts().map((p) => ({ name: p.name, description: p.description, arguments: p.arguments ?? [] })),
  }));

  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    const prompt = vault.prompts().find((p) => p.name === request.params.name);
    if (!prompt) throw new NotFoundError(`Unknown prompt "${request.params.name}".`);
    const messages = await prompt.get(request.params.arguments ?? {});
    return { description: prompt.description, messages: messages.map((m) => ({ role: m.role, content: { type: 'text' as const, text: m.text } })) };
  });

  return server;
}
