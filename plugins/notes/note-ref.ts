/**
 * A note named the way the link tools name one (get_note_links, get_backlinks): its id (with or
 * without `.md`), else its title, else its filename stem; case and spacing as wikilinks ignore
 * them. A former name does not count: a tool argument names a note as it is now. Without the
 * links plugin only ids resolve.
 */
import { NotekernelError } from '../../kernel/errors.js';
import type { Note } from '../../kernel/note.js';
import type { ToolContext } from '../../kernel/tool.js';
import { foldLetters } from '../../toolkit/search/fold-letters.js';
import { LINK_INDEX } from '../links/service.js';

export async function requireNoteRef(ctx: ToolContext, identifier: string): Promise<Note> {
  try {
    return await ctx.notes.require(identifier);
  } catch (err) {
    // A path leaving the vault stays refused; a miss or a title that is no id shape is looked up.
    if (!(err instanceof NotekernelError) || !['not_found', 'validation_failed'].includes(err.code)) throw err;
    const found = await byName(ctx, identifier);
    if (!found) throw err;
    return found;
  }
}

/** A name as wikilinks compare names: letters folded, case and spacing ignored, no `.md`. */
export function nameKeyOf(text: string): string {
  const key = foldLetters(text).trim().replace(/\s+/g, ' ').toLowerCase();
  return key.endsWith('.md') ? key.slice(0, -3) : key;
}

async function byName(ctx: ToolContext, identifier: string): Promise<Note | undefined> {
  const index = ctx.tryResolve(LINK_INDEX);
  if (!index) return undefined;
  const titled = (await index.titleOwners(identifier).catch(() => []))[0];
  if (titled) return ctx.notes.get(titled);
  const target = await index.resolve(identifier).catch(() => null);
  if (!target) return undefined;
  const note = await ctx.notes.get(target);
  const stem = (note?.filename ?? target.split('/').pop() ?? '').replace(/\.md$/i, '');
  return note && nameKeyOf(stem) === nameKeyOf(identifier) ? note : undefined;
}
