/**
 * The resource templates flint-note serves (its docs/MCP_RESOURCES.md), each also with a
 * `{vault_id}` segment naming another registered vault:
 *   flint-note://note/{type}/{filename}            the note, as get_note answers it
 *   flint-note://notes/{type}                      the type's notes (JSON list)
 *   flint-note://notes/tagged/{tag}                notes carrying the tag (JSON list)
 *   flint-note://links/incoming/{type}/{filename}  links into the note, as get_backlinks lists them
 * `{filename}` is taken with or without `.md`. The tagged templates come before
 * `notes/{vault_id}/{type}`, so `notes/tagged/x` is always the tag (a vault named "tagged"
 * is reached by its type listing through vault_id on the tools instead).
 */
import { NotFoundError } from '../../kernel/errors.js';
import type { NoteStore } from '../../kernel/backend.js';
import type { NoteSummary } from '../../kernel/note.js';
import type { PluginContext, ResourceDefinition, ResourceVault } from '../../kernel/plugin.js';
import { VAULT_ROUTER } from './service.js';

interface Target {
  store: NoteStore;
  call: ResourceVault['call'];
}

/** A listed note as flint-note's collection resources show it. */
function row(n: NoteSummary) {
  return {
    id: n.id,
    type: n.type,
    filename: n.filename,
    title: n.title,
    created: n.created,
    modified: n.updated,
    size: n.size,
    tags: n.tags,
    path: n.path,
  };
}

const withMd = (filename: string) => (/\.md$/i.test(filename) ? filename : `${filename}.md`);

export function noteResourceTemplates(ctx: PluginContext<unknown>): ResourceDefinition[] {
  const target = async (params: Record<string, string>, vault: ResourceVault): Promise<Target> => {
    const id = params.vault_id;
    if (id === undefined || id === ctx.vault.id) return { store: ctx.store, call: vault.call };
    const router = ctx.tryResolve(VAULT_ROUTER);
    if (!router)
      throw new NotFoundError(
        `Vault '${id}' cannot be reached from here: resources name another vault only when served (notekernel serve).`,
        { vault_id: id },
      );
    const other = await router.vault(id);
    return { store: other.notes.store, call: (name, args) => other.call(name, args) };
  };
  const note = async (params: Record<string, string>, vault: ResourceVault) =>
    (await target(params, vault)).call('get_note', { identifier: `${params.type}/${withMd(params.filename ?? '')}` });
  const ofType = async (params: Record<string, string>, vault: ResourceVault) => {
    const { store } = await target(params, vault);
    const type = params.type ?? '';
    const types = (await store.listTypes?.()) ?? [];
    if (!types.includes(type))
      throw new NotFoundError(`Note type '${type}' does not exist. Available types: ${types.join(', ') || '(none)'}`, {
        type,
        available: types,
      });
    return (await store.list({ type, orderBy: 'updated', direction: 'desc' })).map(row);
  };
  const tagged = async (params: Record<string, string>, vault: ResourceVault) => {
    const { store } = await target(params, vault);
    const tag = (params.tag ?? '').replace(/^#/, '').toLowerCase();
    return (await store.list({ orderBy: 'updated', direction: 'desc' }))
      .filter((n) => n.tags.some((t) => t.toLowerCase() === tag))
      .map(row);
  };
  const incoming = async (params: Record<string, string>, vault: ResourceVault) => {
    const answer = (await (
      await target(params, vault)
    ).call('get_backlinks', { identifier: `${params.type}/${withMd(params.filename ?? '')}` })) as {
      backlinks?: unknown;
    };
    return answer.backlinks ?? [];
  };
  const template = (
    uri: string,
    name: string,
    description: string,
    read: ResourceDefinition['read'],
  ): ResourceDefinition => ({
    uri,
    template: true,
    name,
    description,
    mimeType: 'application/json',
    read,
  });
  return [
    template(
      'flint-note://note/{type}/{filename}',
      'Individual note',
      'A note by type and filename, .md optional (e.g. flint-note://note/general/my-note): JSON as get_note answers.',
      note,
    ),
    template(
      'flint-note://note/{vault_id}/{type}/{filename}',
      'Individual note in a specific vault',
      'A note of another registered vault, by vault, type and filename.',
      note,
    ),
    template(
      'flint-note://notes/tagged/{tag}',
      'Notes by tag',
      'Notes carrying a tag, newest first (e.g. flint-note://notes/tagged/important): JSON list.',
      tagged,
    ),
    template(
      'flint-note://notes/tagged/{vault_id}/{tag}',
      'Notes by tag in a specific vault',
      'Notes of another registered vault carrying a tag: JSON list.',
      tagged,
    ),
    template(
      'flint-note://notes/{type}',
      'Notes by type',
      'Notes of a type, newest first (e.g. flint-note://notes/general): JSON list.',
      ofType,
    ),
    template(
      'flint-note://notes/{vault_id}/{type}',
      'Notes by type in a specific vault',
      'Notes of a type in another registered vault: JSON list.',
      ofType,
    ),
    template(
      'flint-note://links/incoming/{type}/{filename}',
      'Incoming links to a note',
      'Links from other notes to this one (JSON list, as get_backlinks lists them).',
      incoming,
    ),
    template(
      'flint-note://links/incoming/{vault_id}/{type}/{filename}',
      'Incoming links to a note in a specific vault',
      'Links into a note of another registered vault (JSON list).',
      incoming,
    ),
  ];
}
