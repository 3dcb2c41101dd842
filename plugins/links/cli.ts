/**
 * `notekernel links-repair [--dry-run] [--note ID] [--json]`: the links_repair tool for people,
 * contributed through the plugin's `cli` (the CLI parses the options the plugin declares).
 * Exit code 1 when some linking note could not be rewritten (it changed meanwhile): running it
 * again finishes the job.
 */
import type { CliCommandDefinition } from '../../kernel/plugin.js';
import type { NoteStore } from '../../kernel/backend.js';
import type { LinksRuntime } from './runtime.js';

export function linksRepairCommand(runtime: LinksRuntime, store: NoteStore): CliCommandDefinition {
  return {
    name: 'links-repair',
    summary: 'rewrite links to notes renamed or moved outside the server',
    async run({ options }, io) {
      const dryRun = options.dryRun === true;
      const json = options.json === true;
      await store.refresh?.();
      const noteId = typeof options.note === 'string' ? await runtime.noteId(options.note) : undefined;
      const report = await runtime.repair({ dryRun, ...(noteId !== undefined ? { noteId } : {}) });
      if (json) {
        io.out(`${JSON.stringify(report, null, 2)}\n`);
      } else {
        for (const m of report.moves)
          io.out(
            `${m.how === 'retitled' ? 'renamed' : 'moved'}: ${m.from_id}${m.how === 'content_hash' ? '' : ` (${m.from_name})`} → ${m.to_id}${m.how === 'content_hash' ? '' : ` (${m.to_name})`}\n`,
          );
        for (const e of report.edits) io.out(`${e.note_id}:${e.line_number}: ${e.before} → ${e.after}\n`);
        for (const n of report.not_rewritten) io.err(`not rewritten: ${n.id}: ${n.reason}\n`);
        const verb = dryRun ? 'would rewrite' : 'rewrote';
        io.out(
          `${verb} ${report.links_updated} link(s) in ${report.notes_updated} note(s)${dryRun && report.edits.length ? '; run without --dry-run to apply' : ''}\n`,
        );
      }
      return report.not_rewritten.length ? 1 : 0;
    },
  };
}
