/**
 * The generated skills served through the SDK's skills extension from our own `SkillSource`,
 * built on first use rather than before the server answers anything: a flint vault's skills
 * take a tool call per note type, which a client that never asks for skills should not wait
 * for. Each build is an immutable snapshot (entries with digests from the SDK's `skillEntry`,
 * and the texts they cover), so a read never meets a file of another build.
 */
import type { McpServer, Resource } from '@modelcontextprotocol/server';
import {
  type Skill,
  SkillCatalogError,
  type SkillCatalogChanges,
  SkillsExtension,
  type SkillsOptions,
  type SkillSource,
  skillEntry,
} from '@modelcontextprotocol/server/ext/skills';

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

/** The vault's skills: attach to each server before connecting it; reload after they may have changed. */
export interface VaultSkills {
  attach(mcp: McpServer): void;
  /**
   * Builds the skills again and serves the new build. A failed build throws and the previous
   * one stays served. When the list changed (a skill added or removed, a name or description
   * changed), every attached server still connected is sent `resources/list_changed`; servers
   * built per request are closed by then, so their caller publishes `listChanged` itself.
   */
  reload(): Promise<SkillCatalogChanges>;
  /** The skills as served now (built on first use). */
  entries(): Promise<readonly Skill[]>;
}

export function servedSkills(build: () => Promise<SkillTree>, options: SkillsOptions = {}): VaultSkills {
  const warn = options.onWarning ?? (() => {});
  let current: Promise<Snapshot> | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  const servers = new Set<WeakRef<McpServer>>();
  // Servers built per request are attached by the thousand: forget the collected ones now and then.
  let pruneAt = PRUNE_AT;

  const snapshot = () => {
    // A failed first build is not kept: the next request tries again.
    current ??= buildSnapshot(build, options.strict ?? false, warn).catch((err) => {
      current = undefined;
      throw err;
    });
    return current;
  };

  const source: SkillSource = {
    async list({ cursor }) {
      // One page holds every skill, so no cursor of ours exists to continue from.
      return { skills: cursor === undefined ? (await snapshot()).ordered : [] };
    },
    async get(uri) {
      const key = canonical(uri);
      return key === undefined ? undefined : (await snapshot()).skills.get(key);
    },
    async read(uri) {
      const key = canonical(uri);
      const text = key === undefined ? undefined : (await snapshot()).files.get(key);
      return text === undefined ? undefined : { text, mimeType: 'text/markdown' };
    },
    // Each SKILL.md in resources/list too, for clients that know resources but not skills.
    async listResources(): Promise<Resource[]> {
      return (await snapshot()).ordered.map((skill) => ({
        uri: skill.uri,
        name: skill.frontmatter.name,
        description: skill.frontmatter.description,
        mimeType: 'text/markdown',
      }));
    },
  };
  const extension = new SkillsExtension({ source, baseUri: BASE, ...options });

  const reloadNow = async (): Promise<SkillCatalogChanges> => {
    const previous = current ? await current.catch(() => undefined) : undefined;
    const next = await buildSnapshot(build, options.strict ?? false, warn);
    current = Promise.resolve(next);
    const changes = diff(previous, next);
    if (changes.listChanged) {
      for (const ref of servers) {
        const mcp = ref.deref();
        if (!mcp) servers.delete(ref);
        else if (mcp.isConnected()) mcp.sendResourceListChanged();
      }
    }
    return changes;
  };

  return {
    attach(mcp) {
      extension.attach(mcp);
      if (servers.size >= pruneAt) {
        for (const ref of servers) if (!ref.deref()) servers.delete(ref);
        pruneAt = Math.max(PRUNE_AT, 2 * servers.size);
      }
      servers.add(new WeakRef(mcp));
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
