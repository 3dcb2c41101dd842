/**
 * `notekernel/testing`: the contract suites a backend runs to show it keeps the NoteStore and
 * SearchIndex contracts, as the built-in backends do. A backend's test file calls
 * `describeNoteStoreContract(name, open)` and/or `describeSearchIndexContract(name, open)` with a
 * factory opening a fresh, empty instance; the suites use only the contracts and the subject's
 * `outside` view (another program's: files on disk, a remote service). They run under vitest,
 * an optional peer dependency of the package.
 */
export { describeNoteStoreContract } from './note-store.contract.js';
export { describeSearchIndexContract, type SearchSubject } from './search-index.contract.js';
export { QUERY_SYNTAX_TABLE } from './query-syntax.table.js';
export {
  declares,
  filesOutside,
  TEMP_PREFIX,
  type ContractOptions,
  type ContractSubject,
  type OpenSubject,
  type OutsideWorld,
} from './contract-support.js';
