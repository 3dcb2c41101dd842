/**
 * Colours for readable output (the CLI's results, log lines on a terminal): on a terminal
 * only, never when NO_COLOR is set (https://no-color.org) or TERM is dumb; FORCE_COLOR turns
 * them on anywhere. Plain ANSI codes: six styles do not need a library.
 */
export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  red(text: string): string;
  cyan(text: string): string;
}

export function colorEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '' && force !== '0' && force !== 'false') return true;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

const wrap = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;

const COLOR: Style = {
  bold: wrap(1, 22),
  dim: wrap(2, 22),
  green: wrap(32, 39),
  yellow: wrap(33, 39),
  red: wrap(31, 39),
  cyan: wrap(36, 39),
};
const same = (text: string) => text;
const PLAIN: Style = { bold: same, dim: same, green: same, yellow: same, red: same, cyan: same };

export function styleFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): Style {
  return colorEnabled(stream, env) ? COLOR : PLAIN;
}

/** The visible width of styled text (escape codes take no room). */
export function visibleLength(text: string): number {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[\d+m/g, '').length;
}
