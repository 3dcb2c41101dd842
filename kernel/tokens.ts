/** Services the kernel itself registers in every vault scope. Plugins add their own tokens. */
import { token } from './container.js';
import type { NoteStore, SearchIndex } from './backend.js';
import type { Logger } from './logger.js';
import type { NoteService } from './notes.js';
import type { VaultInfo } from './vault-info.js';

export const LOGGER = token<Logger>('kernel.logger');
export const VAULT_INFO = token<VaultInfo>('kernel.vault-info');
export const NOTE_STORE = token<NoteStore>('kernel.note-store');
export const SEARCH_INDEX = token<SearchIndex>('kernel.search-index');
export const NOTES = token<NoteService>('kernel.notes');
