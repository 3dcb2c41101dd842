/**
 * `notekernel serve` for the conformance suite's checks that need its diagnostic tools: the flint
 * profile plus the fixtures plugin, served by the same serveHttp / stdio server as the CLI.
 * Usage: node dist/test/support/conformance/serve.js --vault DIR [--http]
 */
import fs from 'node:fs';
import { createKernel, createRouter, serveHttp } from '../../../app/index.js';
import { serveStdio } from '../../../app/mcp/stdio.js';
import { builtinLazyCatalogue } from '../../../profiles/builtins.js';
import { flintProfile } from '../../../profiles/flint/index.js';
import { conformanceFixturesPlugin } from './fixtures-plugin.js';

const args = process.argv.slice(2);
const vaultDir = args[args.indexOf('--vault') + 1];
if (!vaultDir || args.indexOf('--vault') < 0) throw new Error('usage: serve.js --vault DIR [--http]');
fs.mkdirSync(vaultDir, { recursive: true });

const kernel = await createKernel({
  profile: 'flint-conformance',
  catalogue: {
    ...builtinLazyCatalogue,
    plugins: { ...builtinLazyCatalogue.plugins, 'conformance-fixtures': async () => conformanceFixturesPlugin },
    profiles: [
      ...builtinLazyCatalogue.profiles,
      { ...flintProfile, id: 'flint-conformance', plugins: { ...flintProfile.plugins, 'conformance-fixtures': true } },
    ],
  },
});
const router = createRouter(kernel, { watch: true });
const vault = await router.start(vaultDir);
await vault.init();
if (args.includes('--http')) {
  const handle = await serveHttp(router, { port: 0 });
  process.stderr.write(`notekernel: MCP on ${handle.url}\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await handle.close();
  await kernel.close();
} else {
  await serveStdio(router, () => kernel.close());
}
