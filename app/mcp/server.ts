/**
 * The MCP adapter over `vault.call()`. It uses the SDK's low-level Server on purpose: tools
 * are validated once, by our own invoke(), and every tool failure (bad arguments included)
 * becomes an `isError` result whose JSON body carries the stable error code. What is wrong
 * with the request itself (no tool name, an unknown tool, resource or prompt) is a protocol
 * error with the code the spec gives it (see requests.ts).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import type { ToolHost } from '../tool-host.js';
import { VERSION } from '../version.js';
import { forwardLogs } from './client-log.js';
import { clientProgress } from './client-progress.js';
import { InFlight } from './in-flight.js';
import { AjvJsonSchemaValidator } from './lazy-ajv-provider.js';
import { findResource } from '../../kernel/resource-template.js';
import {
  getPromptParams,
  handle,
  listParams,
  ProtocolError,
  protocolError,
  readResourceParams,
  RESOURCE_NOT_FOUND,
  toolCallParams,
} from './requests.js';
import { renderError, renderResult, toolListing } from './tool-results.js';

export { renderError, renderResult } from './tool-results.js';

export interface McpServerOptions {
  /** Shared by every session of one process, so shutdown can wait for all their calls. */
  inFlight?: InFlight;
  /** The message limit (decision 028): answers above it are refused as too_large. */
  maxMessageBytes?: number;
}

export function createMcpServer(vault: ToolHost, options: McpServerOptions = {}): Server {
  const inFlight = options.inFlight ?? new InFlight();
  const server = new Server(
    { name: 'notekernel', version: VERSION },
    {
      // Ajv loads on the first validator asked for (an elicitation answer; no tool asks one).
      jsonSchemaValidator: new AjvJsonSchemaValidator(),
      capabilities: { tools: {}, resources: {}, prompts: {}, logging: {} },
      instructions: `notekernel serving vault "${vault.info.id}" (profile ${vault.info.profile}). Read a note before updating it and pass its content_hash.`,
    },
  );
  const stopForwarding = forwardLogs(server);
  const previousOnClose = server.onclose;
  server.onclose = () => {
    stopForwarding();
    previousOnClose?.();
  };

  handle(server, 'tools/list', listParams, async () => ({ tools: vault.tools().map(toolListing) }));

  handle(server, 'tools/call', toolCallParams, async (params, extra) => {
    if (!vault.hasTool(params.name)) {
      throw new ProtocolError(
        ErrorCode.InvalidParams,
        `Unknown tool "${params.name}"; tools/list names the tools this server has.`,
      );
    }
    const token = params._meta?.progressToken;
    const progress = token === undefined ? undefined : clientProgress(token, (n) => extra.sendNotification(n));
    return inFlight.run(async () => {
      try {
        const value = await vault.call(params.name, params.arguments ?? {}, {
          caller: clientName(server),
          ...(progress ? { progress } : {}),
        });
        await progress?.sent();
        return renderResult(value, options.maxMessageBytes, params.name);
      } catch (err) {
        await progress?.sent();
        return renderError(err);
      }
    });
  });

  handle(server, 'resources/list', listParams, async () => ({
    resources: vault
      .resources()
      .filter((r) => !r.template)
      .map((r) => ({
        uri: r.uri,
        name: r.name,
        description: r.description,
        mimeType: r.mimeType ?? 'application/json',
      })),
  }));

  handle(server, 'resources/templates/list', listParams, async () => ({
    resourceTemplates: vault
      .resources()
      .filter((r) => r.template)
      .map((r) => ({
        uriTemplate: r.uri,
        name: r.name,
        description: r.description,
        mimeType: r.mimeType ?? 'application/json',
      })),
  }));

  handle(server, 'resources/read', readResourceParams, async ({ uri }) => {
    const resource = findResource(vault.resources(), uri)?.resource;
    if (!resource)
      throw new ProtocolError(
        RESOURCE_NOT_FOUND,
        `Unknown resource "${uri}"; resources/list and resources/templates/list name the resources this server has.`,
        { uri },
      );
    try {
      const value = await vault.readResource(uri);
      return {
        contents: [
          {
            uri,
            mimeType: resource.mimeType ?? 'application/json',
            text: typeof value === 'string' ? value : JSON.stringify(value, null, 2),
          },
        ],
      };
    } catch (err) {
      throw protocolError(err, RESOURCE_NOT_FOUND);
    }
  });

  handle(server, 'prompts/list', listParams, async () => ({
    prompts: vault.prompts().map((p) => ({ name: p.name, description: p.description, arguments: p.arguments ?? [] })),
  }));

  handle(server, 'prompts/get', getPromptParams, async (params) => {
    const prompt = vault.prompts().find((p) => p.name === params.name);
    if (!prompt)
      throw new ProtocolError(
        ErrorCode.InvalidParams,
        `Unknown prompt "${params.name}"; prompts/list names the prompts this server has.`,
      );
    try {
      const messages = await prompt.get(params.arguments ?? {});
      return {
        description: prompt.description,
        messages: messages.map((m) => ({ role: m.role, content: { type: 'text' as const, text: m.text } })),
      };
    } catch (err) {
      throw protocolError(err, ErrorCode.InvalidParams);
    }
  });

  return server;
}

/** The client as its `initialize` named itself, for the journal's "who". */
function clientName(server: Server): string {
  const client = server.getClientVersion();
  return client ? `${client.name} ${client.version}`.trim() : 'mcp';
}
