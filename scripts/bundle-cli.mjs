// Bundles the built CLI (dist/app/cli/run.js) into one CommonJS file beside it and writes
// V8's code cache for it by running it once; bin.cjs prefers the pair (decision 011).
// better-sqlite3's JavaScript is inside; its native addon stays in the package, loaded by path
// (toolkit/sqlite-driver.ts). typescript stays outside: cosmiconfig needs it only for a
// `.ts` config file, and inside the bundle its 8 MB would be read and mapped on every start.
// The @energetic-ai packages (hybrid-search's sentence model) stay outside too: they find their
// weights and WASM files beside their own code, and load only when a vault embeds.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { builtinModules, createRequire } from 'node:module';
import { rolldown } from 'rolldown';

const dir = 'dist/app/cli';
const out = `${dir}/run.bundle.cjs`;
fs.rmSync(`${out}.v8cache`, { force: true });
// Node's own modules are required where they are first used, not all at the top of the bundle:
// an external import would be hoisted there, and http2, http and zlib (the HTTP transport only)
// would load on every start. Each is one small ES module whose exports are the builtin's own
// values: as a CommonJS module it was copied, key by key, into a fresh namespace for every module
// importing it (fs 28 times, path 36): callgrind counted 31M instructions of every start for it. CommonJS importers get the object
// itself through the bundler's "module.exports" export. Accessor properties (crypto.prng, fs.promises)
// are left to the default export: reading them here could warn or load more.
const require = createRequire(import.meta.url);
const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const lazyBuiltins = {
  name: 'lazy-builtins',
  resolveId(id, importer) {
    if (!builtins.has(id)) return null;
    const name = id.replace(/^node:/, '');
    return importer?.startsWith('\0builtin:') ? { id: `node:${name}`, external: true } : `\0builtin:${name}`;
  },
  load(id) {
    if (!id.startsWith('\0builtin:')) return null;
    const name = id.slice('\0builtin:'.length);
    const descriptors = Object.entries(Object.getOwnPropertyDescriptors(require(`node:${name}`)));
    const names = descriptors.filter(([key, d]) => !d.get && key !== 'default' && IDENTIFIER.test(key)).map(([key]) => key);
    return [
      `const m = require('node:${name}');`,
      'export default m;',
      'export { m as "module.exports" };',
      names.length ? `export const { ${names.join(', ')} } = m;` : '',
    ].join('\n');
  },
};
const build = await rolldown({
  input: `${dir}/run.js`,
  platform: 'node',
  external: ['typescript', /^@energetic-ai\//],
  plugins: [lazyBuiltins],
  logLevel: 'warn',
});
// ASCII only, so bin.cjs reads the file as latin1 into a one-byte string (a UTF-8 decode into a
// two-byte string took ~35 ms of every start); whitespace dropped, names kept for stack traces.
await build.write({ file: out, format: 'cjs', codeSplitting: false, charset: 'ascii', minify: { compress: false, mangle: false } });
await build.close();
if (fs.readFileSync(out).some((byte) => byte > 0x7f)) {
  console.error(`bundle-cli: ${out} holds non-ASCII bytes, which bin.cjs cannot read as latin1`);
  fs.rmSync(out, { force: true });
  process.exit(1);
}
// V8's code cache holds the functions compiled when it is written, so the warm-up is what a
// client does first: a served vault answering initialize, tools/list and a get_note. It runs on
// a throwaway vault and config folder: never the user's.
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'notekernel-bundle-'));
const env = { ...process.env, NOTEKERNEL_CONFIG_DIR: path.join(scratch, '.config') };
spawnSync(process.execPath, [`${dir}/bin.cjs`, 'init', scratch, '--profile', 'flint'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
const warm = await warmUp(['serve', '--profile', 'flint', '--vault', scratch, '--log-level', 'warn'], { ...env, NOTEKERNEL_WRITE_CODE_CACHE: '1' });
fs.rmSync(scratch, { recursive: true, force: true });
if (warm !== 0 || !fs.existsSync(`${out}.v8cache`)) {
  console.error('bundle-cli: the bundled CLI did not run; removing it so bin.cjs uses the modules');
  fs.rmSync(out, { force: true });
  fs.rmSync(`${out}.v8cache`, { force: true });
  process.exit(1);
}
console.error(`bundle-cli: ${out} (${(fs.statSync(out).size / 1e6).toFixed(1)} MB) + code cache (${(fs.statSync(`${out}.v8cache`).size / 1e6).toFixed(1)} MB)`);

/** Serves MCP over stdio for one exchange, then hangs up; resolves with the exit code. */
function warmUp(args, childEnv) {
  const child = spawn(process.execPath, [`${dir}/bin.cjs`, ...args], { env: childEnv, stdio: ['pipe', 'pipe', 'inherit'] });
  const requests = [
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'build', version: '0' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_note', arguments: { identifier: 'general/welcome-to-your-vault' } } },
  ];
  child.stdin.write(requests.map((r) => `${JSON.stringify(r)}\n`).join(''));
  const timer = setTimeout(() => child.kill(), 60_000);
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (JSON.parse(line).id === 3) child.stdin.end();
  });
  return new Promise((resolve) => child.once('exit', (code) => (clearTimeout(timer), resolve(code))));
}
