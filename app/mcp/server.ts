/**
 * The MCP adapter over `vault.call()`, one instance per connection (stdio, a 2025 HTTP session)
 * or per request (2026-07-28 over HTTP). It uses the SDK's low-level Server on purpose: tools are
 * validated once, by our own invoke(), and every tool failure (bad arguments included) becomes an
 * `isError` result whose JSON body carries the stable error code. What is wrong with the request
 * itself (no tool name, an unknown tool, resource or prompt) is a protocol error with the code
 * the spec gives it (see requests.ts). Nothing a call answers depends on the connection: the
 * vault is the call's `vault_id` or the configured current one (decision 049).
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  type ClientCapabilities,
  ProtocolErrorCode,
  Server,
} from '@modelcontextprotocol/server';
import { findResource } from '../../kernel/resource-template.js';
import type { ToolHost } from '../tool-host.js';
import { VERSION } from '../version.js';
import { forwardLogs, requestLogs } from './client-log.js';
import { clientProgress } from './client-progress.js';
import { InFlight } from './in-flight.js';
import {
  getPromptParams,
  handle,
  listParams,
  ProtocolError,
  protocolError,
  RESOURCE_NOT_FOUND,
  readResourceParams,
  toolCallParams,
  type Extra,
} from './requests.js';
import { CACHE_HINTS } from './cache-hints.js';
import { announceChanges, type ResourceChanges } from './resource-changes.js';
import { answering, REQUEST_STATE } from './input-needed.js';
import { changesSkills, type VaultSkills } from './skills/index.js';
import { renderError, renderResult, toolListing } from './tool-results.js';

export { renderError, renderResult } from './tool-results.js';

export type Era = 'legacy' | 'modern';

export interface McpServerOptions {
  /** Shared by every instance of one process, so shutdown can wait for all their calls. */
  inFlight?: InFlight;
  /** The message limit (decision 028): answers above it are refused as too_large. */
  maxMessageBytes?: number;
  /** The protocol era this instance serves (default legacy: a hand-connected 2025 server). */
  era?: Era;
  /**
   * The process's note changes: a long-lived instance (stdio, a 2025 session) announces them
   * itself (`resources/updated`); one built for a single HTTP request leaves that to the handler.
   */
  changes?: ResourceChanges;
  /** Built for one HTTP request: its changes are announced by the handler, not by the instance. */
  perRequest?: boolean;
  /** The vault's skills (one per process: `vaultSkills(vault)`), served as resources and skills/list. */
  skills?: VaultSkills;
}

export function createMcpServer(vault: ToolHost, options: McpServerOptions = {}): Server {
  const inFlight = options.inFlight ?? new InFlight();
  const era = options.era ?? 'legacy';
  const server = new Server(
    { name: 'notekernel', version: VERSION },
    {
      capabilities: {
        tools: { listChanged: false },
        // Skills come and go with note types: their list changes, the rest of the resources do not.
        resources: { subscribe: true, listChanged: options.skills !== undefined },
        prompts: { listChanged: false },
        logging: {},
      },
      cacheHints: CACHE_HINTS,
      requestState: REQUEST_STATE,
      instructions: `notekernel serving vault "${vault.info.id}" (profile ${vault.info.profile}). Read a note before updating it and pass its content_hash.`,
    },
  );
  const skills = options.skills;
  skills?.install(server);
  const stops: Array<() => void> = [];
  // 2025: the level a client chose with logging/setLevel holds for its connection. 2026-07-28:
  // each request carries its own level, and only that request's records go back on its stream.
  if (era === 'legacy') stops.push(forwardLogs(server));
  if (options.changes && !options.perRequest) stops.push(announceChanges(server, options.changes, era));
  const previousOnClose = server.onclose;
  server.onclose = () => {
    for (const stop of stops) stop();
    previousOnClose?.();
  };

  handle(server, 'tools/list', listParams, async () => ({ tools: vault.tools().map(toolListing) }));

  handle(server, 'tools/call', toolCallParams, async (params, extra) => {
    if (!vault.hasTool(params.name)) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown tool "${params.name}"; tools/list names the tools this server has.`,
      );
    }
    const token = params._meta?.progressToken ?? extra.mcpReq._meta?.progressToken;
    const progress = token === undefined ? undefined : clientProgress(token, (n) => extra.mcpReq.notify(n));
    return inFlight.run(() =>
      requestLogs(era, extra, async () => {
        try {
          // A tool that asks (InputNeededError): the SDK puts its questions to the client.
          return await answering(
            params.name,
            params.arguments,
            extra,
            clientCapabilities(server, extra),
            async (answers) => {
              const value = await vault.call(params.name, params.arguments ?? {}, {
                caller: clientName(server, extra),
                answers,
                ...(progress ? { progress } : {}),
              });
              if (skills && changesSkills(params.name)) reloadSkills(skills, options.changes, vault);
              return renderResult(value, options.maxMessageBytes, params.name);
            },
          );
        } catch (err) {
          if (err instanceof ProtocolError) throw err; // the request itself is wrong (a stale requestState)
          return renderError(err);
        } finally {
          await progress?.sent();
        }
      }),
    );
  });

  handle(server, 'resources/list', listParams, async () => ({
    resources: [
      ...vault
        .resources()
        .filter((r) => !r.template)
        .map((r) => ({
          uri: r.uri,
          name: r.name,
          description: r.description,
          mimeType: r.mimeType ?? 'application/json',
        })),
      ...((await skills?.listResources()) ?? []),
    ],
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
    const skillFile = await skills?.readResource(uri);
    if (skillFile) return { contents: [skillFile] };
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
      throw protocolError(err, RESOURCE_NOT_FOUND, { uri });
    }
  });

  handle(server, 'prompts/list', listParams, async () => ({
    prompts: vault.prompts().map((p) => ({ name: p.name, description: p.description, arguments: p.arguments ?? [] })),
  }));

  handle(server, 'prompts/get', getPromptParams, async (params, extra) => {
    const prompt = vault.prompts().find((p) => p.name === params.name);
    if (!prompt)
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown prompt "${params.name}"; prompts/list names the prompts this server has.`,
      );
    try {
      return await answering(
        `prompt:${prompt.name}`,
        params.arguments,
        extra,
        clientCapabilities(server, extra),
        async (answers) => {
          const messages = await prompt.get(params.arguments ?? {}, { answers });
          return {
            description: prompt.description,
            messages: messages.map((m) => ({ role: m.role, content: { type: 'text' as const, text: m.text } })),
          };
        },
      );
    } catch (err) {
      throw protocolError(err, ProtocolErrorCode.InvalidParams);
    }
  });

  return server;
}

/**
 * Rebuilds the skills after a tool that may change them, without holding the answer back.
 * Long-lived instances are told by the catalogue itself; instances built per request are gone by
 * then, so the process's change feed tells the HTTP handler.
 */
function reloadSkills(skills: VaultSkills, changes: ResourceChanges | undefined, vault: ToolHost): void {
  // The write is done whatever the rebuild does: a failed one keeps the previous skills served.
  skills.reload().then(
    (changed) => changed.listChanged && changes?.listChanged(),
    (err: unknown) => vault.logger.warn({ err }, 'the skills could not be rebuilt after a note type changed'),
  );
}

/** What the client can be asked: its request's envelope (2026), or what it declared at initialize (2025). */
function clientCapabilities(server: Server, extra: Extra): ClientCapabilities | undefined {
  const envelope = extra.mcpReq.envelope as Record<string, unknown> | undefined;
  return (envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ?? server.getClientCapabilities();
}

/** The client as it named itself (initialize in 2025, each request's envelope in 2026), for the journal's "who". */
function clientName(server: Server, extra: Extra): string {
  const envelope = extra.mcpReq.envelope as Record<string, { name?: string; version?: string } | undefined> | undefined;
  const client = envelope?.[CLIENT_INFO_META_KEY] ?? server.getClientVersion();
  return client?.name ? `${client.name} ${client.version ?? ''}`.trim() : 'mcp';
}
