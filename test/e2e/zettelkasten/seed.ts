/**
 * Seed 001 as written: its tool parameter tables (§ 5), its example values (§ 4, § 6, § 8) and a
 * caller that refuses any argument the seed does not list, so a test built on it cannot lean on
 * `next_action.arguments` or any other notekernel addition.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { expect } from 'vitest';
import { callTool } from '../../support/mcp.js';

/** § 5.1–5.3: every tool's parameters, as the seed's tables list them. */
export const SEED_PARAMETERS: Record<string, readonly string[]> = {
  start_draft_generation: ['topic'],
  title_thinker: ['context_summary'],
  generate_title: [],
  commit_title: ['title'],
  content_thinker: ['title', 'key_points'],
  generate_content: [],
  commit_draft: ['content'],
  start_card_generation: ['draft_content', 'title', 'tags'],
  title_reflection: ['original_title', 'user_feedback'],
  content_reflection: ['original_content', 'user_feedback'],
  commit_content: ['content'],
  heading_reflection: ['title', 'content_summary'],
  generate_heading: [],
  commit_heading: ['heading'],
  template_selector: ['title', 'tags'],
  apply_template: ['title', 'content', 'heading', 'template_type', 'tags'],
  save_card: ['formatted_card', 'filename'],
  get_available_templates: [],
  reset_workflow: [],
};

export interface SeedStep {
  tool: string;
  args: Record<string, unknown>;
  body: Record<string, unknown> & {
    next_action?: { tool: string; arguments?: Record<string, unknown> };
    warnings?: string[];
  };
}

/** Calls a tool exactly as the seed writes the call; any other argument fails the test. */
export function seedCaller(client: Client, log: SeedStep[] = []) {
  return async (tool: string, args: Record<string, unknown> = {}): Promise<SeedStep['body']> => {
    const allowed = SEED_PARAMETERS[tool];
    expect(allowed, `${tool} is not a seed tool`).toBeDefined();
    for (const key of Object.keys(args))
      expect(allowed, `${tool}(${key}) is not in seed 001's parameter list`).toContain(key);
    const answer = await callTool(client, tool, args);
    expect(answer.isError, `${tool}: ${JSON.stringify(answer.body)}`).toBe(false);
    const body = answer.body as SeedStep['body'];
    log.push({ tool, args, body });
    return body;
  };
}

// § 4 examples.
export const TITLE_1 = '20251021-MCP-Tool-Driven-Sequential-Workflow'; // 4.1.4, 44 characters
export const TITLE_2 = '20251021-MCP-Stateless-Sequential-Workflow'; // 4.2.3, 42 characters
export const TAGS = ['#MCP', '#WorkflowDesign']; // 4.2.1
export const TITLE_FEEDBACK = 'Emphasize stateless design aspect'; // 4.2.3
export const CONTENT_FEEDBACK = 'Add more concrete examples'; // 4.2.5
export const CONTENT_SUMMARY =
  'Discusses how MCP implements stateless sequential workflows through tool-returned process instructions'; // 4.2.7
export const HEADING = 'MCP: Implementing Stateless Sequential Workflows Through Tool-Returned Process Instructions'; // 4.2.7
export const KEY_POINTS = ['Point 1', 'Point 2', 'Point 3']; // 4.1.5

/** What the model writes (the seed shows "[Full draft content]"): plain paragraphs. */
export const DRAFT = [
  'Tool descriptions become part of the system prompt, so a long workflow described there pollutes every turn.',
  'Instead each tool returns the next action, and generator tools return an embedded prompt.',
  'The server keeps no session state; the client carries the title, content and tags from call to call.',
].join('\n\n');
export const REVISED = [
  'Tool descriptions become part of the system prompt, so a long workflow described there pollutes every turn.',
  'Instead each tool returns the next action. For example, commit_title answers with content_reflection in stage 2.',
  'The server keeps no session state. For example, apply_template receives title, content, heading and tags in one call.',
].join('\n\n');

/** § 6.1, verbatim. */
export const SEED_CONFIG_YAML = `# Minimal configuration file

# Where template files are stored
templates_directory: "./templates"

# Where generated cards are saved
output_directory: "~/zettelkasten/cards"

# Optional: Naming conventions document
naming_conventions_file: "./config/naming-conventions.md"

# Optional: Template mapping rules
template_mapping_file: "./config/template-mapping.yaml"

# Optional: File operation settings
file_operations:
  create_backup: true          # Create .backup before overwriting
  filename_sanitization: true  # Remove unsafe characters from filenames
`;

/** § 6.2's general template (below its "# templates/general.md" caption). */
export const SEED_GENERAL_TEMPLATE = `---
title: {{title}}
tags: {{tags}}
created: {{created}}
---

# {{content_heading}}

## Core Concept

{{core_concept}}

## Detailed Explanation

{{detailed_explanation}}

## Practical Applications

{{practical_applications}}

## Related Links

{{related_links}}

## References

{{references}}
`;

/** The naming convention of 4.1.3's prompt, written as a user's prose file (no frontmatter). */
export const SEED_CONVENTIONS_PROSE = `Naming Convention:
- Format: YYYYMMDD-CoreConcept
- Length: 20-40 characters
- Atomic: One card, one concept
- Self-explanatory: Title alone should convey the topic

Examples:
- 20251021-MCP-Tool-Driven-Design
- 20251021-State-Machine-Patterns-in-Workflows
`;

/**
 * § 6.3's layout: the server's project folder (config.yaml, config/, templates/) and the user's
 * ~/zettelkasten/cards, under `root` (the test's HOME).
 */
export async function seedProject(
  root: string,
): Promise<{ home: string; project: string; config: string; cards: string }> {
  const home = path.join(root, 'home');
  const project = path.join(root, 'zettelkasten-mcp');
  const cards = path.join(home, 'zettelkasten', 'cards');
  await fs.mkdir(cards, { recursive: true });
  await fs.mkdir(path.join(project, 'config'), { recursive: true });
  await fs.mkdir(path.join(project, 'templates'));
  await fs.writeFile(path.join(project, 'config.yaml'), SEED_CONFIG_YAML);
  await fs.writeFile(path.join(project, 'templates', 'general.md'), SEED_GENERAL_TEMPLATE);
  await fs.writeFile(path.join(project, 'config', 'naming-conventions.md'), SEED_CONVENTIONS_PROSE);
  await fs.writeFile(path.join(project, 'config', 'template-mapping.yaml'), 'default: general\n');
  return { home, project, config: path.join(project, 'config.yaml'), cards };
}
