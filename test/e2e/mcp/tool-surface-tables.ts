/**
 * The per-tool tables the tool-surface test works from: the arguments that make each tool
 * succeed (so its structured answer is checked too), and what each tool writes (so its
 * annotations can be checked against it).
 */

/** Reads a note's or a note type's content_hash through the client, for the writing tools' samples. */
export type Sample =
  | Record<string, unknown>
  | ((
      read: (tool: string, args: Record<string, unknown>) => Promise<Record<string, unknown>>,
    ) => Promise<Record<string, unknown>>);

/** Arguments that make each listed tool succeed, so its structured answer is checked too. */
export const SAMPLE_ARGS: Record<string, Sample> = {
  create_note: { title: 'Surface', content: 'Links to [[Other]] #tag' },
  get_note: { identifier: 'general/surface.md' },
  get_notes: { identifiers: ['general/surface.md'] },
  search_notes: { query: 'surface' },
  search_notes_advanced: { type: 'general' },
  search_notes_sql: { query: 'SELECT id FROM notes' },
  list_notes_by_type: { type: 'general' },
  get_note_info: { title_or_filename: 'Surface' },
  get_note_links: { identifier: 'general/surface.md' },
  get_backlinks: { identifier: 'general/surface.md' },
  get_note_type_info: { type_name: 'general' },
  memory_capture: { title: 'Surface memory', body: 'A body.' },
  generate_title: {},
  template_selector: { title: '20251021-Surface', tags: ['#x'] },
  create_file: { path: 'Surface Folder/Surface.md', content: 'Links to [[Other]]' },
  read_file: { path: 'Surface Folder/Surface.md' },
  find_outlinks: { path: 'Surface Folder/Surface.md' },
  find_backlinks: { note_name: 'Other' },
  search_vault: { query: 'surface' },
  search_by_folder: { folder: 'Surface Folder' },
  search_by_date_range: { start_date: '2000-01-01', end_date: '2100-01-01' },
  list_files_by_frontmatter: { field: 'tags', value: 'x' },
  save_preference: { preference: 'Be brief' },
  list: { query: 'surface' },
  get: { id: 'surface1' },
  save: { text: 'Surface\nA body.', tags: ['x'] },
  manage: { action: 'get_stats' },
  analyze_note: { identifier: 'general/surface.md' },
  bulk_delete_notes: { pattern: '^no note is called this$' },
  rename_tag: { from: 'tag', to: 'renamed-tag' },
  create_note_type: { type_name: 'surfacetype', description: 'Notes made by the surface test.' },
  update_note_type: async (read) => ({
    type_name: 'surfacetype',
    description: 'Still the surface test.',
    content_hash: (await read('get_note_type_info', { type_name: 'surfacetype' })).content_hash,
  }),
  delete_note_type: { type_name: 'surfacetype', confirm: true },
  update_note: async (read) => ({
    identifier: 'general/spare.md',
    content: 'Changed',
    content_hash: (await read('get_note', { identifier: 'general/spare.md' })).content_hash,
  }),
  rename_note: async (read) => ({
    identifier: 'general/spare.md',
    new_title: 'Spare renamed',
    content_hash: (await read('get_note', { identifier: 'general/spare.md' })).content_hash,
  }),
  move_note: async (read) => ({
    identifier: 'general/spare.md',
    new_type: 'daily',
    content_hash: (await read('get_note', { identifier: 'general/spare.md' })).content_hash,
  }),
  delete_note: { identifier: 'general/gone.md', confirm: true },
  undo_operation: async (read) => {
    // A journalled operation to undo: a batch create (flint), a memory rename (agent-memory) or a frontmatter batch (obsidian).
    await read('create_note', { notes: [{ title: 'Undone', content: 'x' }] })
      .catch(async () => {
        const entry = (await read('memory_capture', { title: 'Undone memory', body: 'x' })) as { id: string };
        await read('memory_rename', { id: entry.id, new_title: 'Undone memory renamed' });
      })
      .catch(async () => {
        await read('create_file', { path: 'Undone.md', content: 'x' });
        await read('batch_update_frontmatter', { paths: ['Undone.md'], field: 'status', value: 'undone' });
      });
    return { operation_id: ((await read('list_operations', {})).operations as Array<{ id: string }>)[0]?.id };
  },
  memory_read: async (read) => ({ id: ((await read('memory_list', {})).result as Array<{ id: string }>)[0]?.id }),
  memory_links: async (read) => ({ id: ((await read('memory_list', {})).result as Array<{ id: string }>)[0]?.id }),
  memory_search: { query: 'body' },
  memory_update: async (read) => {
    const entry = (await read('memory_capture', { title: 'Updated memory', body: 'Old.' })) as {
      id: string;
      contentHash: string;
    };
    return { id: entry.id, body: 'New.', contentHash: entry.contentHash };
  },
  memory_rename: async (read) => ({
    id: ((await read('memory_capture', { title: 'Renamed memory', body: 'x' })) as { id: string }).id,
    new_title: 'Renamed again',
  }),
  memory_archive: async (read) => ({
    id: ((await read('memory_capture', { title: 'Archived memory', body: 'x' })) as { id: string }).id,
  }),
  memory_unarchive: async (read) => ({
    id: ((await read('memory_capture', { title: 'Unarchived memory', body: 'x' })) as { id: string }).id,
  }),
  memory_delete: async (read) => ({
    id: ((await read('memory_capture', { title: 'Deleted memory', body: 'x' })) as { id: string }).id,
  }),
  memory_replace_link: async (read) => {
    const [from, to] = [
      (await read('memory_capture', { title: 'Merged away', body: 'x' })) as { id: string },
      (await read('memory_capture', { title: 'Kept', body: 'x' })) as { id: string },
    ];
    await read('memory_capture', { title: 'Linking', body: `see [[${from.id}|it]]` });
    return { oldId: from.id, newId: to.id };
  },
  migrate: { step: 'agent-memory-v2', dry_run: true },
  update_frontmatter: { path: 'Surface Folder/Surface.md', field: 'status', value: 'draft' },
  batch_update_frontmatter: { paths: ['Surface Folder/Surface.md'], field: 'status', value: 'done' },
  move_file: async (read) => (
    await read('create_file', { path: 'Moved.md', content: 'x' }), { source: 'Moved.md', destination: 'Moved again.md' }
  ),
  batch_move_files: async (read) => (
    await read('create_file', { path: 'Batch.md', content: 'x' }),
    { moves: [{ source: 'Batch.md', destination: 'Batch moved.md' }] }
  ),
  log_interaction: { query: 'Surface test', task_description: 'Surface test', summary: 'Called every tool.' },
  // The vault tools run last, on vaults beside the served one (inside the test's temp folder).
  create_vault: async (read) => (
    await read('create_vault', { vault_id: 'surface-three', name: 'Surface three', path: 'surface-three' }),
    { vault_id: 'surface-two', name: 'Surface two', path: 'surface-two' }
  ),
  update_vault: { vault_id: 'surface-two', name: 'Surface 2' },
  switch_vault: { vault_id: 'surface-two' },
  remove_vault: { vault_id: 'surface-three' },
  remove_preference: async (read) => (await read('save_preference', { preference: 'Remove me' }), { line_number: 2 }),
};

/** Zettelkasten's steps take the previous step's answer; these arguments make each one succeed on its own. */
Object.assign(SAMPLE_ARGS, {
  start_draft_generation: { topic: 'MCP tool design' },
  title_thinker: { context_summary: 'We discussed designing MCP tools.' },
  commit_title: { title: '20251021-MCP-Tool-Design' },
  content_thinker: { title: '20251021-MCP-Tool-Design', key_points: ['one point'] },
  commit_draft: { content: 'A draft body.', title: '20251021-MCP-Tool-Design' },
  start_card_generation: { draft_content: 'A draft body.', title: '20251021-MCP-Tool-Design', tags: ['#MCP'] },
  title_reflection: { original_title: '20251021-MCP-Tool-Design' },
  content_reflection: { original_content: 'A draft body.', title: '20251021-MCP-Tool-Design' },
  commit_content: { content: 'A draft body.', title: '20251021-MCP-Tool-Design' },
  heading_reflection: { title: '20251021-MCP-Tool-Design', content_summary: 'A draft body.' },
  commit_heading: {
    heading: 'How MCP tools are designed around one clear step each',
    title: '20251021-MCP-Tool-Design',
  },
  apply_template: {
    title: '20251021-MCP-Tool-Design',
    content: 'A draft body.',
    template_type: 'general',
    tags: ['#MCP'],
  },
  save_card: { formatted_card: '# 20251021-MCP-Tool-Design\n\nA draft body.', filename: '20251021-MCP-Tool-Design.md' },
});

/**
 * Annotations checked against what each tool does. Read-only: changes nothing on disk or in
 * the registry. Destructive: overwrites or removes what a user wrote (a content, a title, a
 * tag, a schema); moves and archives keep everything and are not. The card-workflow steps
 * (commit_*, apply_template, reset_workflow) stay read-only: the server keeps no workflow state
 * (decision 002), so they only check and answer; save_card alone writes.
 */
export const WRITES: Record<string, 'additive' | 'destructive'> = {
  create_vault: 'additive',
  switch_vault: 'additive',
  update_vault: 'destructive',
  remove_vault: 'destructive',
  create_note_type: 'additive',
  update_note_type: 'destructive',
  delete_note_type: 'destructive',
  create_note: 'additive',
  update_note: 'destructive',
  rename_note: 'destructive',
  move_note: 'additive',
  delete_note: 'destructive',
  bulk_delete_notes: 'destructive',
  migrate_links: 'additive',
  links_repair: 'destructive',
  rename_tag: 'destructive',
  save_card: 'additive',
  memory_capture: 'additive',
  memory_rename: 'destructive',
  memory_update: 'destructive',
  memory_archive: 'additive',
  memory_unarchive: 'additive',
  memory_delete: 'destructive',
  memory_replace_link: 'destructive',
  migrate: 'destructive',
  create_file: 'additive',
  update_frontmatter: 'destructive',
  batch_update_frontmatter: 'destructive',
  move_file: 'additive',
  batch_move_files: 'additive',
  log_interaction: 'additive',
  save_preference: 'additive',
  remove_preference: 'destructive',
  save: 'destructive',
  manage: 'destructive',
  undo_operation: 'destructive',
};
