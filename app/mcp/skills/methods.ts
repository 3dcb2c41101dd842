/**
 * skills/list and skills/get on the SDK's low-level `Server`, which our MCP adapter uses (its
 * resources handlers are ours, so the SDK's `SkillsExtension.attach`, which needs an `McpServer`
 * and registers its own resource template, cannot serve there). The answers are the extension's:
 * every skill on one page, the cache fields the 2026-07-28 revision requires (extra fields a 2025
 * client ignores), and -32602 for a URI no skill has.
 */
import { type CacheHint, ProtocolError, ProtocolErrorCode, type Server } from '@modelcontextprotocol/server';
import type { Skill } from '@modelcontextprotocol/server/ext/skills';
import { z } from 'zod';

// The extension's names, written out so the server does not load the extension's code to start
// (test/unit/mcp/skills-names.test.ts holds them to the SDK's constants).
export const SKILLS_EXTENSION_ID = 'io.modelcontextprotocol/skills';
export const SKILLS_LIST_METHOD = 'skills/list';
export const SKILLS_GET_METHOD = 'skills/get';

const listParams = z.object({ cursor: z.string().optional() }).loose().optional();
const getParams = z.object({ uri: z.string() }).loose();

export interface SkillLookup {
  list(): Promise<readonly Skill[]>;
  get(uri: string): Promise<Skill | undefined>;
}

export function installSkillMethods(server: Server, skills: SkillLookup, cacheHint: CacheHint = {}): void {
  const cache = { ttlMs: cacheHint.ttlMs ?? 0, cacheScope: cacheHint.cacheScope ?? 'private' };
  server.setRequestHandler(SKILLS_LIST_METHOD, { params: listParams }, async (params) => ({
    // One page holds every skill, so no cursor of ours exists to continue from.
    skills: params?.cursor === undefined ? [...(await skills.list())] : [],
    ...cache,
  }));
  server.setRequestHandler(SKILLS_GET_METHOD, { params: getParams }, async ({ uri }) => {
    const skill = await skills.get(uri);
    if (!skill) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `No skill is served at ${uri}; skills/list names the skills this server has.`,
      );
    }
    return { skill, ...cache };
  });
  server.registerCapabilities({ extensions: { [SKILLS_EXTENSION_ID]: {} } });
}
