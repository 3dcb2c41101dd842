/** Temp folders, spawned servers and prepared sandboxes for the zettelkasten e2e tests. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { connectStdio, type StdioSession } from '../../support/mcp.js';
import { runCli } from '../../support/run-cli.js';
import { removeDir, tempDir } from '../../support/temp.js';
import { writeUserConfig } from './fixtures.js';

export interface Harness {
  sandbox(prefix: string): Promise<string>;
  serve(args: string[]): Promise<StdioSession>;
  /** Starts `serve` with a user's config that should fail; `setup` may break things first. */
  startFails(
    user: Parameters<typeof writeUserConfig>[1],
    setup?: (root: string) => Promise<void>,
  ): Promise<{ code: number | null; stderr: string; root: string }>;
  cleanup(): Promise<void>;
}

export function createHarness(): Harness {
  const dirs: string[] = [];
  const sessions: StdioSession[] = [];
  const sandbox = async (prefix: string) => {
    const dir = await tempDir(prefix);
    dirs.push(dir);
    return dir;
  };
  return {
    sandbox,
    async serve(args) {
      const session = await connectStdio(['serve', ...args]);
      sessions.push(session);
      return session;
    },
    async startFails(user, setup) {
      const root = await sandbox('nk-zk-bad-');
      await fs.mkdir(path.join(root, 'vault'));
      const config = await writeUserConfig(path.join(root, 'user'), user);
      await setup?.(root);
      const run = await runCli(['serve', '--config', config, '--vault', path.join(root, 'vault')]);
      return { code: run.code, stderr: run.stderr, root };
    },
    async cleanup() {
      await Promise.all(sessions.map((s) => s.close()));
      await Promise.all(dirs.map(removeDir));
    },
  };
}

/**
 * root/vault/cards (the output directory) with two planted symlinks, one to a file outside the
 * vault and one to a file elsewhere in the vault, and a config naming `cards` as output.
 */
export async function plantPathSandbox(
  root: string,
): Promise<{ vault: string; cards: string; config: string; outside: string }> {
  const vault = path.join(root, 'vault');
  const cards = path.join(vault, 'cards');
  const outside = path.join(root, 'outside', 'target.md');
  await fs.mkdir(cards, { recursive: true });
  await fs.mkdir(path.dirname(outside));
  await fs.writeFile(outside, 'untouched\n');
  await fs.writeFile(path.join(vault, 'other.md'), 'also untouched\n');
  await fs.symlink(outside, path.join(cards, 'link-out.md'));
  await fs.symlink(path.join(vault, 'other.md'), path.join(cards, 'link-in.md'));
  const config = path.join(root, 'zk.config.yaml');
  await fs.writeFile(config, 'profile: zettelkasten\nplugins:\n  card-workflow:\n    output_directory: cards\n');
  return { vault, cards, config, outside };
}
