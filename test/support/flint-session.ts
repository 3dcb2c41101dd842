/**
 * A flint vault initialised by the built CLI (`notekernel init`) and served by the built
 * `notekernel serve --profile flint` to a real SDK client over stdio, with small helpers that
 * assert a tool succeeded or failed and return its body.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { callTool, connectStdio, type StdioSession, type ToolAnswer } from './mcp.js';
import { runCli } from './run-cli.js';
import { removeDir, tempDir } from './temp.js';

export interface ErrorAnswer {
  error: string;
  message: string;
  [detail: string]: unknown;
}

export interface FlintSession {
  root: string;
  session: StdioSession;
  call(name: string, args?: Record<string, unknown>): Promise<ToolAnswer>;
  /** The body of a successful call; throws with the error body otherwise. */
  ok<T = Record<string, unknown>>(name: string, args?: Record<string, unknown>): Promise<T>;
  /** The error body of a failed call; throws if the call succeeded. */
  fail(name: string, args?: Record<string, unknown>): Promise<ErrorAnswer>;
  /** Writes `.flint-note/config.yml` (read on every call, so it applies at once). */
  setConfig(text: string): Promise<void>;
  /** Every file under the vault, `.flint-note/` excluded: to show a refused call wrote nothing. */
  files(): Promise<string[]>;
  read(relPath: string): Promise<string>;
  close(): Promise<void>;
}

export async function startFlint(prefix: string): Promise<FlintSession> {
  const root = await tempDir(prefix);
  const init = await runCli(['init', root]);
  if (init.code !== 0) throw new Error(`notekernel init failed:\n${init.stderr}`);
  const session = await connectStdio(['serve', '--profile', 'flint', '--vault', root]);
  const call = (name: string, args: Record<string, unknown> = {}) => callTool(session.client, name, args);
  return {
    root,
    session,
    call,
    async ok<T>(name: string, args: Record<string, unknown> = {}) {
      const answer = await call(name, args);
      if (answer.isError) throw new Error(`${name} failed: ${JSON.stringify(answer.body)}`);
      return answer.body as T;
    },
    async fail(name, args = {}) {
      const answer = await call(name, args);
      if (!answer.isError) throw new Error(`${name} succeeded: ${JSON.stringify(answer.body)}`);
      return answer.body as ErrorAnswer;
    },
    setConfig: (text) => fs.writeFile(path.join(root, '.flint-note', 'config.yml'), text),
    async files() {
      const out: string[] = [];
      for (const entry of await fs.readdir(root, { withFileTypes: true, recursive: true })) {
        const rel = path.relative(root, path.join(entry.parentPath, entry.name));
        if (entry.isFile() && !rel.startsWith('.flint-note')) out.push(rel.split(path.sep).join('/'));
      }
      return out.sort();
    },
    read: (relPath) => fs.readFile(path.join(root, relPath), 'utf8'),
    async close() {
      await session.close();
      await removeDir(root);
    },
  };
}
