/**
 * The vault's skills through a real v2 MCP pair: a bare low-level Server with the skills
 * installed and its resources handlers delegating to them (as app/mcp/server.ts serves them), or
 * an McpServer with them attached; a Client over InMemoryTransport, and the SDK's SkillsClient
 * listing, reading and verifying (size, digest, frontmatter) each file, for real kernels of the
 * three profiles with skills.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { type Skill, SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { InMemoryTransport, McpServer, ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server';
import type { SkillWarning } from '@modelcontextprotocol/server/ext/skills';
import { afterEach, describe, expect, it } from 'vitest';
import { changesSkills, type VaultSkills, vaultSkills } from '../../../app/mcp/skills/index.js';
import type { UserConfig } from '../../../app/config/user-config.js';
import { REPO_ROOT } from '../../support/cli.js';
import { createTestKernel, type TestKernel, tempDir } from '../../support/temp.js';

interface Served {
  kernel: TestKernel;
  catalog: VaultSkills;
  client: Client;
  skills: SkillsClient;
  warnings: SkillWarning[];
  listChanged: number;
}

const open: Served[] = [];

afterEach(async () => {
  for (const s of open.splice(0)) {
    await s.client.close();
    await s.kernel.close();
  }
});

type Via = 'Server' | 'McpServer';

async function serve(profile: string, config: UserConfig = {}, via: Via = 'Server'): Promise<Served> {
  const kernel = await createTestKernel({ profile, config });
  const warnings: SkillWarning[] = [];
  // strict: a generated skill the SDK would skip fails the test instead of a warning.
  const catalog = vaultSkills(kernel.vault, { strict: true, onWarning: (w) => warnings.push(w) });
  if (!catalog) throw new Error(`${profile}: no skills`);
  const server = via === 'Server' ? lowLevelServer(catalog) : new McpServer({ name: 'skills-test', version: '0.0.0' });
  if (server instanceof McpServer) await catalog.attach(server);
  const client = new Client({ name: 'skills-test-client', version: '0.0.0' });
  const served: Served = { kernel, catalog, client, skills: new SkillsClient(client), warnings, listChanged: 0 };
  client.setNotificationHandler('notifications/resources/list_changed', () => {
    served.listChanged++;
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  open.push(served);
  return served;
}

/** The wiring the MCP adapter does: skills installed, its own resources handlers list and read them. */
function lowLevelServer(skills: VaultSkills): Server {
  const server = new Server(
    { name: 'skills-test', version: '0.0.0' },
    { capabilities: { resources: { listChanged: true } } },
  );
  skills.install(server);
  server.setRequestHandler('resources/list', async () => ({ resources: await skills.listResources() }));
  server.setRequestHandler('resources/read', async (request) => {
    const contents = await skills.readResource(request.params.uri);
    if (!contents) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown resource ${request.params.uri}`);
    return { contents: [contents] };
  });
  return server;
}

function byName(skills: readonly Skill[], name: string): Skill {
  const skill = skills.find((s) => s.frontmatter.name === name);
  if (!skill) throw new Error(`no skill "${name}" among ${skills.map((s) => s.frontmatter.name).join(', ')}`);
  return skill;
}

/** A file of a skill as the client reads it: verified against the listed size and digest. */
async function readText(s: Served, skill: Skill, ref?: string): Promise<string> {
  const file = await s.skills.read(skill, ref);
  expect(file.verified).toBe(true);
  return file.text ?? new TextDecoder().decode(file.bytes);
}

describe.each<Via>(['Server', 'McpServer'])('skills: flint note types (%s)', (via) => {
  it('lists a skill per note type and the index, each SKILL.md with the type’s instructions and fields', async () => {
    const s = await serve('flint', {}, via);
    expect(s.skills.supported).toBe(true);
    const { skills } = await s.skills.list();
    const names = skills.map((k) => k.frontmatter.name);
    const types = (await s.kernel.vault.call('list_note_types', {})) as { name: string }[];
    expect(names).toEqual(expect.arrayContaining(['note-types', ...types.map((t) => `note-type-${t.name}`)]));
    expect(names).toHaveLength(types.length + 1);

    const reading = byName(skills, 'note-type-reading');
    expect(reading.frontmatter.description).toContain('Track articles, papers, books, and other reading material');
    const text = await readText(s, reading);
    expect(text).toContain('# Note type "reading"');
    expect(text).toContain('- Always ask for author information and publication context');
    expect(text).toContain('- `rating` (number, required; min: 1; max: 5): Personal rating');
    expect(text).toContain(
      '- `reading_type` (select, required; options: book, article, paper, blog_post, documentation)',
    );

    const index = await readText(s, byName(skills, 'note-types'));
    expect(index).toContain(
      '| reading | Track articles, papers, books, and other reading material | `note-type-reading` |',
    );
    expect(index).toMatch(/- `update_note`: .*content_hash/);
    // A client that knows resources but not skills finds each SKILL.md in resources/list.
    const { resources } = await s.client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(expect.arrayContaining(skills.map((k) => k.uri)));
    await expect(s.skills.get('skill://note-type-nope/SKILL.md')).rejects.toThrow(/No skill is served at/);
    // The adapter's own resources are left to it.
    expect(await s.catalog.readResource('flint-note://types')).toBeUndefined();
    expect(s.warnings).toEqual([]);
  });

  it('a note type created after start is a skill after reload, and clients are told the list changed', async () => {
    const s = await serve('flint', {}, via);
    expect((await s.skills.list()).skills.map((k) => k.frontmatter.name)).not.toContain('note-type-recipe');
    expect(changesSkills('create_note_type')).toBe(true);
    expect(changesSkills('create_note')).toBe(false);
    await s.kernel.vault.call('create_note_type', {
      type_name: 'recipe',
      description: 'Dishes worth cooking again',
      agent_instructions: ['Ask how long it takes to cook'],
      metadata_schema: [{ name: 'servings', type: 'number', required: true, description: 'How many it feeds' }],
    });
    expect((await s.skills.list()).skills.map((k) => k.frontmatter.name)).not.toContain('note-type-recipe');

    const changes = await s.catalog.reload();
    expect(changes.listChanged).toBe(true);
    expect(changes.added).toEqual(['skill://note-type-recipe/SKILL.md']);
    // The index names the new type, so its entry changed too.
    expect(changes.changed).toEqual(['skill://note-types/SKILL.md']);
    await expect.poll(() => s.listChanged).toBe(1);

    const recipe = byName((await s.skills.list()).skills, 'note-type-recipe');
    const text = await readText(s, recipe);
    expect(text).toContain('Dishes worth cooking again');
    expect(text).toContain('- Ask how long it takes to cook');
    expect(text).toContain('- `servings` (number, required): How many it feeds');
  });

  it('reads nothing from the vault until a client asks: a type created before the first list is in it', async () => {
    const s = await serve('flint', {}, via);
    await s.kernel.vault.call('create_note_type', { type_name: 'Book_Club', description: 'What the club reads' });
    const club = byName((await s.skills.list()).skills, 'note-type-book-club');
    expect(await readText(s, club)).toContain('# Note type "Book_Club"');
  });

  it('a note written changes no skill, and a reload then changes nothing', async () => {
    const s = await serve('flint', {}, via);
    await s.skills.list();
    await s.kernel.vault.call('create_note', { type: 'general', title: 'Dune', content: 'Sand.' });
    const changes = await s.catalog.reload();
    expect(changes).toEqual({ added: [], removed: [], changed: [], listChanged: false });
    expect(s.listChanged).toBe(0);
  });

  it('a type deleted leaves the list at reload', async () => {
    const s = await serve('flint', {}, via);
    await s.skills.list();
    await s.kernel.vault.call('delete_note_type', { type_name: 'goals', action: 'delete', confirm: true });
    const changes = await s.catalog.reload();
    expect(changes.removed).toEqual(['skill://note-type-goals/SKILL.md']);
    expect((await s.skills.list()).skills.map((k) => k.frontmatter.name)).not.toContain('note-type-goals');
  });
});

describe('skills: zettelkasten card workflow', () => {
  it('one skill whose stages name their tools in order, with a reference per stage', async () => {
    const s = await serve('zettelkasten');
    const { skills } = await s.skills.list();
    expect(skills.map((k) => k.frontmatter.name)).toEqual(['zettelkasten-card-workflow']);
    const skill = skills[0]!;
    const files = Array.isArray(skill.resources) ? skill.resources.map((r) => r.uri) : [];
    expect(files.sort()).toEqual(
      [
        'SKILL.md',
        'references/naming-conventions.md',
        'references/stage-1-draft.md',
        'references/stage-2-card.md',
        'references/templates.md',
      ].map((f) => `skill://zettelkasten-card-workflow/${f}`),
    );

    const main = await readText(s, skill);
    expect(main).toContain(
      '1. Stage 1, draft: `start_draft_generation` → `title_thinker` → `generate_title` → `commit_title` → `content_thinker` → `generate_content` → `commit_draft`',
    );
    expect(main).toMatch(
      /2\. Stage 2, card: `start_card_generation` → .* → `save_card`; also `generate_title`, `commit_title`, `generate_content` \(/,
    );
    // Served by the plugin but in no stage of the README's table: listed, not dropped.
    expect(main).toMatch(/## Other tools[\s\S]*- `find_cards`: Find saved cards/);
    expect(main).toContain('next_action');

    const draft = await readText(s, skill, 'references/stage-1-draft.md');
    expect(draft).toContain('## `start_draft_generation`');
    expect(draft).toContain('Start a Zettelkasten card (stage 1: draft). Then follow next_action in every answer.');
    expect(draft).toContain('- Answer: `status: workflow_started`');
    const card = await readText(s, skill, 'references/stage-2-card.md');
    expect(card).toContain('## `apply_template`');
    expect(card).toMatch(/## Filenames \(`save_card`\)\n\n`save_card` takes a file name, not a path/);

    const templates = (await s.kernel.vault.call('get_available_templates', {})) as { templates: { name: string }[] };
    const templateText = await readText(s, skill, 'references/templates.md');
    for (const t of templates.templates) expect(templateText).toContain(`## \`${t.name}\``);
    const conventions = await readText(s, skill, 'references/naming-conventions.md');
    expect(conventions).toContain('# Card naming conventions');
    expect(conventions).toContain('- Title format: `YYYYMMDD-CoreConcept` (date prefix YYYYMMDD)');
    expect(conventions).toContain('- Content: 300-800 words');
    expect(s.warnings).toEqual([]);
  });

  it('a rebuild that fails keeps the skills served before it', async () => {
    // The vault's own conventions file, which then goes away: the rebuild cannot read it.
    const file = path.join(await tempDir(), 'conventions.md');
    await fs.copyFile(path.join(REPO_ROOT, 'plugins/card-workflow/defaults/naming-conventions.md'), file);
    const s = await serve('zettelkasten', { plugins: { 'card-workflow': { naming_conventions_file: file } } });
    const before = (await s.skills.list()).skills;
    await fs.rm(file);
    await expect(s.catalog.reload()).rejects.toThrow(/conventions\.md/);
    expect((await s.skills.list()).skills).toEqual(before);
    expect(await readText(s, before[0]!, 'references/naming-conventions.md')).toContain('# Card naming conventions');
  });
});

describe('skills: agent-memory conventions', () => {
  it('one skill with the entry format, links and layout, and the tools as a reference', async () => {
    const s = await serve('agent-memory');
    const { skills } = await s.skills.list();
    expect(skills.map((k) => k.frontmatter.name)).toEqual(['agent-memory']);
    const skill = skills[0]!;
    expect(skill.frontmatter.description).toContain('[[id__XXXXXX|text]]');
    const main = await readText(s, skill);
    expect(main).toContain('| `id` | the filename: `slug id__XXXXXX.md`');
    expect(main).toContain('An entry is written as `# title\\n\\n#tag1 #tag2\\n\\nbody`.');
    expect(main).toMatch(/## Layout\n\n```\nmemory\/\n/);
    expect(main).toMatch(/- `memory_defrag`: Reorganise the memory/);
    // The README's commands for starting a server are not the agent's business.
    expect(main).not.toContain('notekernel serve');
    const tools = await readText(s, skill, 'references/tools.md');
    expect(tools).toContain('| `memory_capture` | `title`, `body`');
    expect(s.warnings).toEqual([]);
  });
});

describe('skills: a vault without them', () => {
  it.each<[string, UserConfig]>([
    ['without the plugin', { plugins: { 'card-workflow': false } }],
    ['hiding a tool the skills are built from', { tools: { hide: ['get_available_templates'] } }],
  ])('has none %s', async (_, config) => {
    const kernel = await createTestKernel({ profile: 'zettelkasten', config });
    try {
      expect(vaultSkills(kernel.vault)).toBeUndefined();
    } finally {
      await kernel.close();
    }
  });
});
