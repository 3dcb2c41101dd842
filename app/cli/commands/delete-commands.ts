/** seed 000's `notekernel delete note | note-type | notes`, each one tool call. */
import { type Command, Option } from 'commander';
import { withCommonOptions as commonOptions, type CommonOptions } from '../open.js';
import { withJsonOption, type OutputOptions } from '../output/print.js';
import { runTool } from './run-tool.js';

const withCommonOptions = (command: Command) => withJsonOption(commonOptions(command));

export function addDeleteCommands(program: Command): void {
  const del = program.command('delete').description('delete a note, a note type, or notes matching criteria');

  withCommonOptions(del.command('note').description('delete one note (backed up first when the vault says so)'))
    .argument('<identifier>', 'note id, e.g. general/my-note.md')
    .option('--confirm', 'confirm the deletion')
    .action((identifier: string, options: CommonOptions & OutputOptions & { confirm?: boolean }) =>
      runTool(
        options,
        'delete_note',
        { identifier, ...(options.confirm ? { confirm: true } : {}) },
        { confirm: '--confirm' },
      ),
    );

  withCommonOptions(del.command('note-type').description('delete a note type, handling its notes'))
    .argument('<type>', 'note type')
    .addOption(
      new Option('--action <action>', 'what to do with its notes')
        .choices(['error', 'migrate', 'delete'])
        .default('error'),
    )
    .option('--target <type>', 'target type for --action=migrate')
    .option('--confirm', 'confirm the deletion')
    .action(
      (type: string, options: CommonOptions & OutputOptions & { action: string; target?: string; confirm?: boolean }) =>
        runTool(
          options,
          'delete_note_type',
          {
            type_name: type,
            action: options.action,
            ...(options.target ? { target_type: options.target } : {}),
            ...(options.confirm ? { confirm: true } : {}),
          },
          { confirm: '--confirm' },
        ),
    );

  withCommonOptions(del.command('notes').description('delete every note matching the criteria'))
    .option('--type <type>', 'only notes of this type')
    .option('--tags <tags>', 'only notes with all these comma-separated tags')
    .option('--pattern <regex>', 'only notes whose content matches')
    .option('--confirm', 'confirm the deletion')
    .action(
      (
        options: CommonOptions & OutputOptions & { type?: string; tags?: string; pattern?: string; confirm?: boolean },
      ) =>
        runTool(
          options,
          'bulk_delete_notes',
          {
            ...(options.type ? { type: options.type } : {}),
            ...(options.tags
              ? {
                  tags: options.tags
                    .split(',')
                    .map((t) => t.trim())
                    .filter(Boolean),
                }
              : {}),
            ...(options.pattern ? { pattern: options.pattern } : {}),
            ...(options.confirm ? { confirm: true } : {}),
          },
          { confirm: '--confirm' },
        ),
    );
}
