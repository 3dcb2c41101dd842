/**
 * The generated skills served through the SDK's skills extension from our own `SkillSource`,
 * built on first use rather than before the server answers anything: a flint vault's skills
 * take a tool call per note type, which a client that never asks for skills should not wait
 * for. Each build is an immutable snapshot (entries with digests from the SDK's `skillEntry`,
 * and the texts they cover), so a read never meets a file of another build.
 */
import type { McpServer, Resource, Server } from '@modelcontextprotocol/server';
// The extension's code loads with the first skill built (or attached), not with the server: a
// client that never asks for skills does not pay for it at start-up (issue 28's first answer).
import type { Skill, SkillCatalogChanges, SkillsOptions, SkillSource } from '@modelcontextprotocol/server/ext/skills';
import { installSkillMethods } from './methods.js';

/** Paths under the skills root (`<skill>/SKILL.md`, `<skill>/references/x.md`) → file text. */
export type SkillTree = Record<string, string>;

interface Snapshot {
  /** Sorted by URI, as clients list them. */
  ordered: Skill[];
  skills: Map<string, Skill>;
  files: Map<string, string>;
}

const BASE = 'skill://';
const PRUNE_AT = 1024;
const canonical = (uri: string) => {
  try {
    return new URL(uri).href;
  } catch {
    return undefined;
  }
};

/**
 * The vault's skills. On an `McpServer`: `attach(mcp)` before connecting. On the low-level
 * `Server` (whose resources/list and resources/read handlers are the caller's): `install(server)`
 * before connecting, and those handlers add `listResources()` and answer `readResource(uri)`.
 */
export interface VaultSkills {
  attach(mcp: McpServer): Promise<void>;
  /** Serves skills/list and skills/get on a low-level server and declares the extension. */
  install(server: Server): void;
  /** Each skill's SKILL.md, for resources/list. */
  listResources(): Promise<Resource[]>;
  /** A skill file's contents for resources/read; undefined when `uri` is no file of a skill. */
  readResource(uri: string): Promise<{ uri: string; mimeType: string; text: string } | undefined>;
  /**
   * Builds the skills again and serves the new build. A failed build throws and the previous
   * one stays served. When the list changed (a skill added or removed, a name or description
   * changed), every attached or installed server still connected is sent
   * `resources/list_changed`; servers built per request are closed by then, so their caller
   * publishes `listChanged` itself.
   */
  reload(): Promise<SkillCatalogChanges>;
  /** The skills as served now (built on first use). */
  entries(): Promise<readonly Skill[]>;
}

/** What can be told the list changed: an McpServer or a low-level Server. */
type Announcer = { connected(): boolean; send(): unknown };

export function servedSkills(build: () => Promise<SkillTree>, options: SkillsOptions = {}): VaultSkills {
  const warn = options.onWarning ?? (() => {});
  let current: Promise<Snapshot> | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  // Weak on the server itself (an announcer object made here would be collected at once); the
  // WeakMap keeps each server's announcer exactly as long as the server lives.
  const servers = new Set<WeakRef<object>>();
  const announcers = new WeakMap<object, Announcer>();
  // Servers built per request are attached by the thousand: forget the collected ones now and then.
  let pruneAt = PRUNE_AT;
  const track = (owner: object, announcer: Announcer) => {
    announcers.set(owner, announcer);
    if (servers.size >= pruneAt) {
      for (const ref of servers) if (!ref.deref()) servers.delete(ref);
      pruneAt = Math.max(PRUNE_AT, 2 * servers.size);
    }
    servers.add(new WeakRef(owner));
  };

  const snapshot = () => {
    // A failed first build is not kept: the next request tries again.
    current ??= buildSnapshot(build, options.strict ?? false, warn).catch((err) => {
      current = undefined;
      throw err;
    });
    return current;
  };
  const get = async (uri: string) => {
    const key = canonical(uri);
    return key === undefined ? undefined : (await snapshot()).skills.get(key);
  };
  const read = async (uri: string) => {
    const key = canonical(uri);
    const text = key === undefined ? undefined : (await snapshot()).files.get(key);
    return text === undefined ? undefined : { text, mimeType: 'text/markdown' };
  };
  // Each SKILL.md in resources/list too, for clients that know resources but not skills.
  const listResources = async (): Promise<Resource[]> =>
    (await snapshot()).ordered.map((skill) => ({
      uri: skill.uri,
      name: skill.frontmatter.name,
      description: skill.frontmatter.description,
      mimeType: 'text/markdown',
    }));

  const source: SkillSource = {
    async list({ cursor }) {
      // One page holds every skill, so no cursor of ours exists to continue from.
      return { skills: cursor === undefined ? (await snapshot()).ordered : [] };
    },
    get,
    read,
    listResources,
  };

  const reloadNow = async (): Promise<SkillCatalogChanges> => {
    const previous = current ? await current.catch(() => undefined) : undefined;
    const next = await buildSnapshot(build, options.strict ?? false, warn);
    current = Promise.resolve(next);
    const changes = diff(previous, next);
    if (changes.listChanged) {
      for (const ref of servers) {
        const owner = ref.deref();
        const server = owner && announcers.get(owner);
        if (!server) servers.delete(ref);
        else if (server.connected()) {
          Promise.resolve()
            .then(() => server.send())
            .catch((err: unknown) => warn({ path: 'resources/list_changed', message: `not sent: ${String(err)}` }));
        }
      }
    }
    return changes;
  };

  return {
    async attach(mcp) {
      const { SkillsExtension } = await import('@modelcontextprotocol/server/ext/skills');
      new SkillsExtension({ source, baseUri: BASE, ...options }).attach(mcp);
      track(mcp, { connected: () => mcp.isConnected(), send: () => mcp.sendResourceListChanged() });
    },
    install(server) {
      installSkillMethods(server, { list: async () => (await snapshot()).ordered, get }, options.cacheHint);
      track(server, { connected: () => server.transport !== undefined, send: () => server.sendResourceListChanged() });
    },
    listResources,
    async readResource(uri) {
      const file = uri.startsWith(BASE) ? await read(uri) : undefined;
      return file && { uri, ...file };
    },
    reload() {
      // One after another, so the build served last is the one built last.
      const run = queue.then(reloadNow);
      queue = run.catch(() => {});
      return run;
    },
    async entries() {
      return (await snapshot()).ordered;
    },
  };
}

async function buildSnapshot(
  build: () => Promise<SkillTree>,
  strict: boolean,
  warn: NonNullable<SkillsOptions['onWarning']>,
): Promise<Snapshot> {
  const bySkill = new Map<string, Record<string, string>>();
  for (const [path, text] of Object.entries(await build())) {
    const slash = path.indexOf('/');
    const name = path.slice(0, slash);
    bySkill.set(name, { ...bySkill.get(name), [path.slice(slash + 1)]: text });
  }
  const { SkillCatalogError, skillEntry } = await import('@modelcontextprotocol/server/ext/skills');
  const skills = new Map<string, Skill>();
  const files = new Map<string, string>();
  for (const [name, texts] of bySkill) {
    let skill: Skill;
    try {
      skill = await skillEntry(name, texts, { baseUri: BASE });
    } catch (err) {
      // One skill the SDK refuses (a name out of its rule) does not take the others down.
      if (strict || !(err instanceof SkillCatalogError)) throw err;
      for (const problem of err.problems) warn(problem);
      continue;
    }
    skills.set(canonical(skill.uri)!, skill);
    for (const [rel, text] of Object.entries(texts)) files.set(canonical(`${BASE}${name}/${rel}`)!, text);
  }
  const ordered = [...skills.values()].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  return { ordered, skills, files };
}

function diff(previous: Snapshot | undefined, next: Snapshot): SkillCatalogChanges {
  const before = previous?.skills ?? new Map<string, Skill>();
  const listed = (s: Snapshot | undefined) =>
    JSON.stringify((s?.ordered ?? []).map((k) => [k.uri, k.frontmatter.name, k.frontmatter.description]));
  return {
    added: [...next.skills.keys()].filter((uri) => !before.has(uri)),
    removed: [...before.keys()].filter((uri) => !next.skills.has(uri)),
    changed: [...next.skills.keys()].filter(
      (uri) => before.has(uri) && JSON.stringify(before.get(uri)) !== JSON.stringify(next.skills.get(uri)),
    ),
    listChanged: listed(previous) !== listed(next),
  };
}
