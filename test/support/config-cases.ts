/**
 * One config file per format cosmiconfig documents, each turning the tags plugin off: a `tools`
 * listing without `list_tags` shows the file was found and applied.
 */
export const JSON_CONFIG = JSON.stringify({ plugins: { tags: false } });
export const YAML_CONFIG = 'plugins:\n  tags: false\n';
export const CJS_CONFIG = 'module.exports = { plugins: { tags: false } };\n';
export const ESM_CONFIG = 'export default { plugins: { tags: false } };\n';
export const TS_CONFIG =
  'const config: { plugins: Record<string, boolean> } = { plugins: { tags: false } };\nexport default config;\n';

/** Files written into the vault folder (parent folders made as needed); the case name says which format is under test. */
export const CONFIG_CASES: Array<[string, Record<string, string>]> = [
  ['notekernel.config.json', { 'notekernel.config.json': JSON_CONFIG }],
  ['notekernel.config.yaml', { 'notekernel.config.yaml': YAML_CONFIG }],
  ['notekernel.config.yml', { 'notekernel.config.yml': YAML_CONFIG }],
  ['notekernel.config.js (CommonJS)', { 'notekernel.config.js': CJS_CONFIG }],
  [
    'notekernel.config.js (ES module, "type": "module")',
    { 'package.json': '{"type":"module"}', 'notekernel.config.js': ESM_CONFIG },
  ],
  ['notekernel.config.mjs', { 'notekernel.config.mjs': ESM_CONFIG }],
  ['notekernel.config.cjs', { 'notekernel.config.cjs': CJS_CONFIG }],
  ['notekernel.config.ts', { 'notekernel.config.ts': TS_CONFIG }],
  ['.notekernelrc (YAML)', { '.notekernelrc': YAML_CONFIG }],
  ['.notekernelrc (JSON)', { '.notekernelrc': JSON_CONFIG }],
  ['.notekernelrc.json', { '.notekernelrc.json': JSON_CONFIG }],
  ['.notekernelrc.yaml', { '.notekernelrc.yaml': YAML_CONFIG }],
  ['.notekernelrc.yml', { '.notekernelrc.yml': YAML_CONFIG }],
  ['.notekernelrc.js', { '.notekernelrc.js': CJS_CONFIG }],
  ['.notekernelrc.mjs', { '.notekernelrc.mjs': ESM_CONFIG }],
  ['.notekernelrc.cjs', { '.notekernelrc.cjs': CJS_CONFIG }],
  ['.notekernelrc.ts', { '.notekernelrc.ts': TS_CONFIG }],
  ['.config/notekernelrc (YAML)', { '.config/notekernelrc': YAML_CONFIG }],
  ['.config/notekernelrc.json', { '.config/notekernelrc.json': JSON_CONFIG }],
  ['.config/notekernelrc.yaml', { '.config/notekernelrc.yaml': YAML_CONFIG }],
  ['.config/notekernelrc.yml', { '.config/notekernelrc.yml': YAML_CONFIG }],
  ['.config/notekernelrc.js', { '.config/notekernelrc.js': CJS_CONFIG }],
  ['.config/notekernelrc.mjs', { '.config/notekernelrc.mjs': ESM_CONFIG }],
  ['.config/notekernelrc.cjs', { '.config/notekernelrc.cjs': CJS_CONFIG }],
  ['.config/notekernelrc.ts', { '.config/notekernelrc.ts': TS_CONFIG }],
  [
    'package.json "notekernel" key',
    { 'package.json': JSON.stringify({ name: 'my-notes', notekernel: { plugins: { tags: false } } }) },
  ],
];
