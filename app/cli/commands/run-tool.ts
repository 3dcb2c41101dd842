/** One tool call from the shell: JSON on stdout, the error body on stdout too, exit 1 on failure. */
import { toNotekernelError } from '../../../kernel/errors.js';
import { ExitCode } from '../exit-code.js';
import { openFromOptions, type CommonOptions } from '../open.js';
import { progressBar } from '../progress-bar.js';

/** `flags` maps a tool argument to the CLI flag that sets it, so messages name what a person types. */
export async function runTool(options: CommonOptions, tool: string, args: unknown, flags: Record<string, string> = {}): Promise<void> {
  const { kernel, router } = await openFromOptions(options, { defaultLogLevel: 'warn' });
  try {
    const result = await router.call(tool, args, { progress: progressBar() });
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } catch (err) {
    const error = toNotekernelError(err);
    process.stdout.write(`${JSON.stringify(error.toBody(), null, 2)}\n`);
    let message = error.message;
    for (const [arg, flag] of Object.entries(flags)) message = message.replace(new RegExp(`Set ${arg}=true`, 'g'), `Pass ${flag}`).replace(new RegExp(`\\b${arg}=true`, 'g'), flag);
    process.stderr.write(`notekernel: ${error.code}: ${message}\n`);
    throw new ExitCode(1);
  } finally {
    await kernel.close();
  }
}
