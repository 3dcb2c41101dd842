/**
 * What a command prints: readable text by default (aligned lines, counts, colour on a terminal),
 * or with `--json` exactly the JSON scripts rely on. Results go to stdout, errors to stderr as
 * one line — and, with `--json`, also as a JSON error object on stdout.
 */
import { Option, type Command } from 'commander';
import type { NotekernelError } from '../../../kernel/errors.js';
import { styleFor, type Style } from './ansi-style.js';

export interface OutputOptions {
  json?: boolean;
}

export function withJsonOption(command: Command): Command {
  return command.addOption(new Option('--json', 'print the result as JSON (for scripts) instead of readable text'));
}

export function emit<T>(options: OutputOptions, value: T, render: (value: T, style: Style) => string): void {
  if (options.json) process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  else {
    const text = render(value, styleFor(process.stdout));
    process.stdout.write(text.endsWith('\n') || text === '' ? text : `${text}\n`);
  }
}

/** The one stderr line every failure gets; with `--json` the error's body goes to stdout too. */
export function printError(json: boolean, error: NotekernelError, message = error.message): void {
  if (json) process.stdout.write(`${JSON.stringify(error.toBody(), null, 2)}\n`);
  const style = styleFor(process.stderr);
  process.stderr.write(`notekernel: ${style.red(error.code)}: ${message}\n`);
}

/** Whether the command line asked for JSON, for errors raised before a command's options exist. */
export function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}
