/**
 * `notekernel serve`: the vault over MCP, stdio by default or Streamable HTTP. A vault folder
 * that does not exist yet is created (as basic-memory and zk do), and said so on stderr.
 * No progress bar here: the first index runs while a client waits, and stderr is the log.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { Option, type Command } from 'commander';
import type { Vault } from '../../../kernel/vault.js';
import {
  expandHome,
  kernelFromOptions,
  openFromOptions,
  withCommonOptions,
  withWorkspaceAsVault,
  type CommonOptions,
} from '../open.js';
import { makeVaultFolder } from '../vault-folder.js';
import { checkRequiredSettings, printConfigVars } from './config-vars.js';

type ServeOptions = CommonOptions & {
  http?: boolean;
  host?: string;
  port?: number;
  token?: string;
  printConfigVars?: boolean;
};

export function addServeCommand(program: Command): void {
  withCommonOptions(program.command('serve').description('serve the vault over MCP (stdio by default)'))
    .addOption(new Option('--http', 'serve Streamable HTTP instead of stdio'))
    .addOption(new Option('--host <host>', 'HTTP bind address').default(undefined))
    .addOption(new Option('--port <port>', 'HTTP port (0 picks a free one)').argParser((v) => Number.parseInt(v, 10)))
    .addOption(new Option('--token <token>', 'bearer token required on HTTP').env('NOTEKERNEL_HTTP_TOKEN'))
    .addOption(
      new Option(
        '--print-config-vars',
        "list the storage backend's environment settings with their effective values (secrets masked), and exit",
      ),
    )
    .action(serve);
}

async function serve(given: ServeOptions): Promise<void> {
  const options = withWorkspaceAsVault(given);
  if (options.printConfigVars) {
    const kernel = await kernelFromOptions(options);
    try {
      printConfigVars(kernel, (text) => process.stdout.write(text));
    } finally {
      await kernel.close();
    }
    return;
  }
  let fresh = false;
  const { kernel, router, vault } = await openFromOptions(options, {
    watch: true,
    beforeOpen: async (k) => {
      checkRequiredSettings(k, (text) => process.stderr.write(text));
      if (options.vault) fresh = await createMissingVault(options.vault);
    },
  });
  if (fresh) await initialiseEmptyVault(vault);
  const shutdown = async () => {
    await kernel.close();
  };
  // The MCP transports load only when serving: `call` and friends start faster without them.
  if (!options.http) {
    const { serveStdio } = await import('../../mcp/stdio.js');
    // In a terminal nothing else would tell a person that the silence is expected.
    if (process.stderr.isTTY)
      process.stderr.write(
        `notekernel: serving ${vault.info.profile} (${vault.info.root ?? vault.info.id}) on stdio — waiting for an MCP client\n`,
      );
    await serveStdio(router, shutdown, kernel.config.limits.messageBytes);
    return;
  }
  const { serveHttp } = await import('../../mcp/http.js');
  const http = kernel.config.http;
  const handle = await serveHttp(router, {
    ...((options.host ?? http.host) ? { host: options.host ?? http.host } : {}),
    ...((options.port ?? http.port) !== undefined ? { port: options.port ?? http.port } : {}),
    ...((options.token ?? http.token) ? { token: options.token ?? http.token } : {}),
    ...(http.allowedOrigins ? { allowedOrigins: http.allowedOrigins } : {}),
    ...(http.allowedHosts ? { allowedHosts: http.allowedHosts } : {}),
    ...(http.sessionIdleSeconds ? { sessionIdleMs: http.sessionIdleSeconds * 1000 } : {}),
    ...(http.maxSessions ? { maxSessions: http.maxSessions } : {}),
    maxMessageBytes: kernel.config.limits.messageBytes,
  }).catch(async (err: unknown) => {
    await shutdown();
    throw err;
  });
  process.stderr.write(`notekernel: MCP on ${handle.url}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await handle.close();
  await shutdown();
}

/** True when the folder is new or holds nothing but hidden entries: serve then initialises it. */
async function createMissingVault(dir: string): Promise<boolean> {
  const root = path.resolve(expandHome(dir));
  const existing = await fs.stat(root).catch(() => undefined);
  if (existing)
    return existing.isDirectory() && (await fs.readdir(root).catch(() => ['?'])).every((name) => name.startsWith('.'));
  // One level at a time: a folder that cannot be made (under a file, on /proc) is one line, exit 2.
  await makeVaultFolder(root);
  process.stderr.write(`notekernel: created the vault folder ${root} (it did not exist)\n`);
  return true;
}

/**
 * An empty folder served gets the profile's default content, as flint-note initialises an
 * empty workspace (flint: the default note types and .flint-note/config.yml). No sample notes:
 * the folder's notes are the ones the client writes. A read-only serve writes nothing.
 */
async function initialiseEmptyVault(vault: Vault): Promise<void> {
  if (vault.info.readOnly) return;
  await vault.init({ sampleNotes: false });
  process.stderr.write(
    `notekernel: the vault folder was empty: wrote the ${vault.info.profile} profile's default content (as notekernel init, without its welcome note)\n`,
  );
}
