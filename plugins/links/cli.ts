/**
 * `notekernel links-repair [--dry-run] [--note ID] [--json]`: the links_repair tool for people,
 * contributed through the plugin's `cli`. Exit code 1 when some linking note could not be
 * rewritten (it changed meanwhile): running it again finishes the job.
 */
import type { CliCommandDefinition } from '../../kernel/plugin.js';
import type { NoteStore } from '../../kernel/backend.js';
import type { LinksRuntime } from './runtime.js';

const USAGE = 'links-repair [--dry-run] [--note <id>] [--json]';

export function linksRepairCommand(runtime: LinksRuntime, store: NoteStore): CliCommandDefinition {
  return {
    name: 'links-repair',
    summary: 'rewrite links to notes renamed or moved outside the server',
    usage: USAGE,
    async run(argv, io) {
      const dryRun = argv.includes('--dry-run');
      const json = argv.includes('--json');
      const noteArg = argv.indexOf('--note');
      const unknown = argv.filter((a, i) => a.startsWith('--') && !['--dry-run', '--json', '--note'].includes(a) && argv[i - 1] !== '--note');
      if (unknown.length || (noteArg !== -1 && argv[noteArg + 1] === undefined)) {
        io.err(`usage: notekernel ${USAGE}\n`);
        return 2;
      }
      await store.refresh();
      const noteId = noteArg === -1 ? undefined : await runtime.noteId(argv[noteArg + 1] as string);
      const report = await runtime.repair({ dryRun, ...(noteId !== undefined ? { noteId } : {}) });
      if (json) {
        io.out(`${JSON.stringify(report, null, 2)}\n`);
      } else {
        for (const m of report.moves) io.out(`${m.how === 'retitled' ? 'renamed' : 'moved'}: ${m.from_id}${m.how === 'content_hash' ? '' : ` (${m.from_name})`} → ${m.to_id}${m.how === 'content_hash' ? '' : ` (${m.to_name})`}\n`);
        for (const e of report.edits) io.out(`${e.note_id}:${e.line_number}: ${e.before} → ${e.after}\n`);
        for (const n of report.not_rewritten) io.err(`not rewritten: ${n.id}: ${n.reason}\n`);
        const verb = dryRun ? 'would rewrite' : 'rewrote';
        io.out(`${verb} ${report.links_updated} link(s) in ${report.notes_updated} note(s)${dryRun && report.edits.length ? '; run without --dry-run to apply' : ''}\n`);
      }
      return report.not_rewritten.length ? 1 : 0;
    },
  };
}
