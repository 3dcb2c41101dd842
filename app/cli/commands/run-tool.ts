/**
 * One tool call from the shell: the result readable (or JSON with --json) on stdout; a failure
 * is one line on stderr (and its error JSON on stdout with --json), exit 1.
 */
import { toNotekernelError } from '../../../kernel/errors.js';
import { ExitCode } from '../exit-code.js';
import { openFromOptions, type CommonOptions } from '../open.js';
import { emit, printError, type OutputOptions } from '../output/print.js';
import { renderToolResult } from '../output/tool-result.js';
import { progressBar } from '../progress-bar.js';

/** `flags` maps a tool argument to the CLI flag that sets it, so messages name what a person types. */
export async function runTool(
  options: CommonOptions & OutputOptions,
  tool: string,
  args: unknown,
  flags: Record<string, string> = {},
): Promise<void> {
  const { kernel, router } = await openFromOptions(options, { defaultLogLevel: 'warn' });
  try {
    const result = await router.call(tool, args, { progress: progressBar(), caller: 'cli' });
    emit(options, result, renderToolResult);
  } catch (err) {
    const error = toNotekernelError(err);
    let message = error.message;
    for (const [arg, flag] of Object.entries(flags))
      message = message
        .replace(new RegExp(`Set ${arg}=true`, 'g'), `Pass ${flag}`)
        .replace(new RegExp(`\\b${arg}=true`, 'g'), flag);
    printError(options.json === true, error, message);
    throw new ExitCode(1);
  } finally {
    await kernel.close();
  }
}
