// Bundles the built CLI (dist/app/cli/run.js) into one CommonJS file beside it, with a source
// map; bin.cjs requires it (decision 011). better-sqlite3's JavaScript is inside; its native addon
// stays in the package, loaded by path (toolkit/sqlite-driver.ts). typescript stays outside:
// cosmiconfig needs it only for a `.ts` config file, and inside the bundle its 8 MB would be read
// and compiled on every start. The @energetic-ai packages (hybrid-search's sentence model) stay
// outside too: they find their weights and WASM files beside their own code, and load only when
// a vault embeds. sql.js (the simplenote cache) stays outside for the same reason: it loads
// sql-wasm.wasm from beside its own file.
import fs from 'node:fs';
import { rolldown } from 'rolldown';

const dir = 'dist/app/cli';
const out = `${dir}/run.bundle.cjs`;
// tsc wrote a source map beside each module; handing it to the bundler makes the bundle's map
// point at the TypeScript sources rather than at dist/.
const tscSourceMaps = {
  name: 'tsc-source-maps',
  load(id) {
    if (!id.endsWith('.js') || !fs.existsSync(`${id}.map`)) return null;
    return { code: fs.readFileSync(id, 'utf8'), map: JSON.parse(fs.readFileSync(`${id}.map`, 'utf8')) };
  },
};
const build = await rolldown({
  input: `${dir}/run.js`,
  platform: 'node',
  external: ['typescript', /^@energetic-ai\//, /^sql\.js(\/|$)/],
  plugins: [tscSourceMaps],
  logLevel: 'warn',
});
await build.write({ file: out, format: 'cjs', codeSplitting: false, sourcemap: true });
await build.close();
// Builds before decision 011's revision left V8's code cache beside the bundle: nothing reads it now.
fs.rmSync(`${out}.v8cache`, { force: true });
console.error(`bundle-cli: ${out} (${(fs.statSync(out).size / 1e6).toFixed(1)} MB) + ${out}.map`);
