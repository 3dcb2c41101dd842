// Bundles the built CLI (dist/app/cli/run.js) into CommonJS chunks in dist/app/cli/bundle/, with
// source maps; bin.cjs requires bundle/run.cjs (decision 011). Each backend, plugin and transport
// the CLI imports lazily is its own chunk, so a start compiles only what the chosen profile uses. better-sqlite3's JavaScript is inside; its native addon
// stays in the package, loaded by path (toolkit/sqlite-driver.ts). typescript stays outside:
// cosmiconfig needs it only for a `.ts` config file, and inside the bundle its 8 MB would be read
// and compiled on every start. The @energetic-ai packages (hybrid-search's sentence model) stay
// outside too: they find their weights and WASM files beside their own code, and load only when
// a vault embeds. sql.js (the simplenote cache) stays outside for the same reason: it loads
// sql-wasm.wasm from beside its own file.
import fs from 'node:fs';
import path from 'node:path';
import { rolldown } from 'rolldown';

const dir = 'dist/app/cli';
const out = `${dir}/bundle`;
// tsc wrote a source map beside each module; handing it to the bundler makes the bundle's map
// point at the TypeScript sources rather than at dist/.
const tscSourceMaps = {
  name: 'tsc-source-maps',
  load(id) {
    if (!id.endsWith('.js') || !fs.existsSync(`${id}.map`)) return null;
    return { code: fs.readFileSync(id, 'utf8'), map: JSON.parse(fs.readFileSync(`${id}.map`, 'utf8')) };
  },
};
// The SDK's server imports its Ajv validator through its `_shims` module, which builds Ajv's module
// graph at load (~280 KB) for a check no notekernel tool needs: in the bundle that module is our
// stand-in, which loads the SDK's own validator on first use (app/mcp/lazy-validator.ts).
const lazyValidator = {
  name: 'lazy-validator',
  resolveId(source) {
    return source === '@modelcontextprotocol/server/_shims' ? path.resolve('dist/app/mcp/lazy-validator.js') : null;
  },
};
const build = await rolldown({
  input: `${dir}/run.js`,
  platform: 'node',
  external: ['typescript', /^@energetic-ai\//, /^sql\.js(\/|$)/],
  plugins: [lazyValidator, tscSourceMaps],
  logLevel: 'warn',
});
// A rebuild writes new chunk names: the old ones go first, so the package ships one build.
fs.rmSync(out, { recursive: true, force: true });
await build.write({
  dir: out,
  format: 'cjs',
  sourcemap: true,
  entryFileNames: 'run.cjs',
  chunkFileNames: '[name]-[hash].cjs',
});
await build.close();
// Earlier builds left one-file bundles (and a V8 code cache) beside bin.cjs: nothing reads them now.
for (const old of ['run.bundle.cjs', 'run.bundle.cjs.map', 'run.bundle.cjs.v8cache'])
  fs.rmSync(`${dir}/${old}`, { force: true });
const files = fs.readdirSync(out).filter((f) => f.endsWith('.cjs'));
const bytes = files.reduce((sum, f) => sum + fs.statSync(`${out}/${f}`).size, 0);
console.error(
  `bundle-cli: ${out}/run.cjs + ${files.length - 1} chunks (${(bytes / 1e6).toFixed(1)} MB) with source maps`,
);
