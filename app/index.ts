/**
 * The package's library entry: the kernel's contracts and API, the built-in plugins, backends
 * and profiles, and the MCP server — with `createKernel` defaulting to the built-in catalogue.
 * `createKernel({ profile: 'flint' })` → `kernel.openVault(dir)` → `vault.call(tool, args)`.
 */
export * from '../kernel/index.js';
// The search syntax's parser and letter folding live in the toolkit; the library surface keeps them.
export { foldWords } from '../toolkit/search/fold-letters.js';
export {
  parseQuery,
  questionTerms,
  requiredGroups,
  queryWords,
  markedWords,
  isStopWord,
} from '../toolkit/search/query.js';
export type { ParsedQuery, QueryTerm, QueryFilter, ParseOptions } from '../toolkit/search/query.js';
export type { UserConfig } from './config/user-config.js';
export { requireVaultFolder } from '../toolkit/vault-folder.js';
export { locationOf } from '../toolkit/note-location.js';
export type { Catalogue, LazyCatalogue, ProfilePreset } from '../profiles/catalogue-types.js';
export { builtinCatalogue } from '../profiles/catalogue.js';
export { builtinLazyCatalogue } from '../profiles/builtins.js';
export { createMcpServer } from './mcp/server.js';
export { serveHttp, type HttpOptions, type HttpHandle } from './mcp/http.js';
export { createRouter, VaultRouter } from './vaults/router.js';

export { createKernel, type CreateKernelOptions, type KernelOptions, type ServedKernel } from './create-kernel.js';
export { createLogger, type LoggerOptions } from './logging/logger.js';
