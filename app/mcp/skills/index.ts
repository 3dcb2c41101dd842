/**
 * The served vault's skills (MCP skills extension, SEP-2640), built from what the vault serves:
 * flint's note types (the note-types plugin's tools), the zettelkasten card workflow
 * (card-workflow's) and agent-memory's conventions (memory's). A vault serving none has no skills.
 *
 * Wiring: once per process `const skills = vaultSkills(vault)` (undefined: nothing to publish;
 * nothing is built until a client asks). On each low-level `Server`, before it connects (per
 * request too): `skills.install(server)`, resources/list adds `await skills.listResources()`, and
 * resources/read answers `await skills.readResource(uri)` when it is not undefined (the
 * `resources` capability says `listChanged: true`). On an `McpServer`: `await skills.attach(mcp)`.
 * After a call that may change them (`changesSkills(name)`): `skills.reload()`; when its answer says
 * `listChanged`, the catalogue tells the long-lived servers, and the HTTP handler (through the
 * process's ResourceChanges) tells the 2026 listeners, since servers built per request are gone.
 */
import type { SkillsOptions } from '@modelcontextprotocol/server/ext/skills';
import type { ToolHost } from '../../tool-host.js';
import { type SkillTree, servedSkills, type VaultSkills } from './source.js';

export type { VaultSkills } from './source.js';

interface SkillKind {
  /**
   * The tools that mean the vault has these skills, the build's calls among them. Asked with
   * `hasTool`, which builds no JSON schema (the listing does), so nothing here slows start-up;
   * a config that hides one (`tools.hide`) gets none of these skills.
   */
  tools: readonly string[];
  build(host: ToolHost): Promise<SkillTree>;
}

// Each kind's text builder loads with the first build, not with the server.
const KINDS: readonly SkillKind[] = [
  {
    tools: ['list_note_types', 'get_note_type_info'],
    build: async (host) => (await import('./note-types.js')).noteTypeSkills(host),
  },
  {
    tools: ['start_draft_generation', 'get_available_templates'],
    build: async (host) => (await import('./card-workflow.js')).cardWorkflowSkills(host),
  },
  { tools: ['memory_capture'], build: async (host) => (await import('./memory.js')).memorySkills(host) },
];

/**
 * Tools after whose success the skills may differ: a note type written or deleted, or another
 * vault made current (its types are other ones). A type's `_description.md` edited on disk is
 * seen at the next of these, or when the caller reloads on its own signal (the types resource).
 */
const SKILL_CHANGING_TOOLS: ReadonlySet<string> = new Set([
  'create_note_type',
  'update_note_type',
  'delete_note_type',
  'switch_vault',
]);

export function changesSkills(toolName: string): boolean {
  return SKILL_CHANGING_TOOLS.has(toolName);
}

/**
 * The vault's skills, or undefined when it serves none of the tools above. Nothing is read
 * from the vault until a client lists or reads a skill; `reload()` rebuilds every skill from the
 * vault, and a failed rebuild keeps the previous skills served.
 */
export function vaultSkills(host: ToolHost, options: SkillsOptions = {}): VaultSkills | undefined {
  const kinds = KINDS.filter((k) => k.tools.every((name) => host.hasTool(name)));
  if (!kinds.length) return undefined;
  const build = async () => {
    const tree: SkillTree = {};
    for (const kind of kinds) Object.assign(tree, await kind.build(host));
    return tree;
  };
  return servedSkills(build, {
    onWarning: (warning) => host.logger.warn({ skill: warning.path }, `skills: ${warning.message}`),
    ...options,
  });
}
