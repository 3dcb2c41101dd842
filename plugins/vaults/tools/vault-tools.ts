/**
 * Seed 000's vault management tools. They act on the kernel-wide registry (and, when serving,
 * the router), so they are `global`: their `vault_id` names the vault they manage.
 */
import fs from 'node:fs/promises';
import { z } from 'zod';
import { defineTool, type ToolContext } from '../../../kernel/tool.js';
import { VAULT_REGISTRY, VAULT_ROUTER } from '../service.js';
import type { VaultEntry, VaultRegistry } from '../registry.js';
import type { VaultRootPolicy } from '../allowed-roots.js';
import { bool, nullableStr, num, str } from '../../../toolkit/tool-output.js';
import { nameString, pathString } from '../../../toolkit/tool-fields.js';

const vaultId = nameString().min(1);

/** A registry entry as the tools show it. */
const vaultOutput = z.object({
  id: str,
  name: str,
  path: str,
  description: str.optional(),
  created: str.optional(),
  last_used: str.optional(),
  is_current: bool.optional(),
  is_served: bool.optional(),
});

function registry(ctx: ToolContext): VaultRegistry {
  return ctx.resolve(VAULT_REGISTRY);
}

async function describeVault(ctx: ToolContext, entry: VaultEntry | undefined) {
  const current = await registry(ctx).currentId();
  if (!entry) return undefined;
  return { ...entry, is_current: entry.id === current, is_served: entry.id === ctx.vault.id };
}

export const listVaultsTool = defineTool({
  name: 'list_vaults',
  description: 'All registered vaults, marking the current one (where calls without vault_id go).',
  input: z.object({}),
  output: z.object({ vaults: z.array(vaultOutput), current_vault: nullableStr, served_vault: str }),
  annotations: { title: 'List vaults', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  global: true,
  async handler(_args, ctx) {
    const reg = registry(ctx);
    const current = await reg.currentId();
    const vaults = await reg.list();
    return {
      vaults: vaults.map((v) => ({ ...v, is_current: v.id === current })),
      current_vault: current ?? null,
      served_vault: ctx.vault.id,
    };
  },
});

/** The folders an agent may use as vaults (allowed-roots.ts); computed per call from the served vault. */
export type RootPolicyOf = (ctx: ToolContext) => VaultRootPolicy;

export const createVaultTool = (policyOf: RootPolicyOf) =>
  defineTool({
    name: 'create_vault',
    description:
      'Register a folder as a vault with the default note types; files there are kept. It must be below an allowed root: ' +
      "the served vault's parent (relative paths start there) or plugins.vaults.allowed_roots; not hidden or a system folder.",
    input: z.object({
      vault_id: vaultId,
      name: nameString().min(1).describe('Display name'),
      path: pathString().min(1).describe('Folder, created if missing'),
      description: z.string().optional().describe('What this vault is for'),
      switch_to: z.boolean().optional().describe('Also make it current'),
    }),
    output: z.object({ success: bool, vault: vaultOutput.optional(), message: str }),
    annotations: {
      title: 'Create vault',
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: false,
    },
    global: true,
    async handler(args, ctx) {
      const folder = policyOf(ctx).check(args.path);
      await fs.mkdir(folder, { recursive: true });
      const entry = await registry(ctx).add({
        id: args.vault_id,
        name: args.name,
        path: folder,
        ...(args.description !== undefined ? { description: args.description } : {}),
      });
      const router = ctx.tryResolve(VAULT_ROUTER);
      let initialised = false;
      if (router) {
        const vault = await router.vault(entry.id);
        await vault.init();
        initialised = true;
        if (args.switch_to) await router.switchTo(entry.id);
      } else if (args.switch_to) {
        await registry(ctx).setCurrent(entry.id);
      }
      return {
        success: true,
        vault: await describeVault(ctx, await registry(ctx).get(entry.id)),
        message: `Created vault '${entry.id}' at ${entry.path}${initialised ? ' with the default note types' : '; run `notekernel init` there for the default note types'}.`,
      };
    },
  });

export const switchVaultTool = (policyOf: RootPolicyOf) =>
  defineTool({
    name: 'switch_vault',
    description:
      'Make a registered vault the current one (see list_vaults). Only below an allowed root (see create_vault); the CLI switches to any.',
    input: z.object({ vault_id: vaultId }),
    output: z.object({ success: bool, vault: vaultOutput, message: str }),
    annotations: {
      title: 'Switch vault',
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
    global: true,
    async handler(args, ctx) {
      policyOf(ctx).check((await registry(ctx).require(args.vault_id)).path);
      const router = ctx.tryResolve(VAULT_ROUTER);
      if (router) await router.switchTo(args.vault_id);
      else await registry(ctx).setCurrent(args.vault_id);
      const entry = await registry(ctx).require(args.vault_id);
      return {
        success: true,
        vault: { ...entry, is_current: true },
        message: `Switched to vault '${entry.id}' (${entry.name}).`,
      };
    },
  });

export const getCurrentVaultTool = defineTool({
  name: 'get_current_vault',
  description: 'The served vault: id, name, path, description, note count.',
  input: z.object({}),
  output: z.object({
    id: str,
    name: str,
    path: str,
    description: nullableStr,
    registered: bool,
    profile: str,
    note_count: num,
    last_used: str.optional(),
  }),
  annotations: { title: 'Current vault', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  global: true,
  async handler(_args, ctx) {
    const entry = await registry(ctx).get(ctx.vault.id);
    const notes = await ctx.notes.store.count();
    return {
      id: ctx.vault.id,
      name: entry?.name ?? ctx.vault.id,
      path: ctx.vault.root,
      description: entry?.description ?? null,
      registered: entry !== undefined,
      profile: ctx.vault.profile,
      note_count: notes,
      ...(entry?.last_used ? { last_used: entry.last_used } : {}),
    };
  },
});

export const updateVaultTool = defineTool({
  name: 'update_vault',
  description: "Change a vault's name or description.",
  input: z
    .object({
      vault_id: vaultId,
      name: nameString().min(1).optional().describe('New display name'),
      description: z.string().optional(),
    })
    .refine((a) => a.name !== undefined || a.description !== undefined, {
      message: 'Give name or description',
      path: ['name'],
    }),
  output: z.object({ success: bool, vault: vaultOutput.optional() }),
  annotations: {
    title: 'Update vault',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  global: true,
  async handler(args, ctx) {
    const entry = await registry(ctx).update(args.vault_id, {
      ...(args.name !== undefined ? { name: args.name } : {}),
      ...(args.description !== undefined ? { description: args.description } : {}),
    });
    return { success: true, vault: await describeVault(ctx, entry) };
  },
});

export const removeVaultTool = defineTool({
  name: 'remove_vault',
  description: 'Unregister a vault; its files stay on disk.',
  input: z.object({ vault_id: vaultId }),
  output: z.object({ success: bool, removed: vaultOutput, message: str }),
  annotations: {
    title: 'Remove vault',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  global: true,
  async handler(args, ctx) {
    const removed = await registry(ctx).remove(args.vault_id);
    return {
      success: true,
      removed,
      message: `Removed vault '${removed.id}' from the registry; its files at ${removed.path} are untouched.`,
    };
  },
});
