/**
 * One error tree for the whole kernel. Every error carries a stable string code (the
 * catalogue below is the public contract, kept in sync with docs/errors.md by a test) and
 * serialisable details, so the MCP, CLI and library surfaces can all render it the same way.
 */

export const ERROR_CODES = {
  not_found: 'The note, type, vault or tool named does not exist.',
  content_hash_mismatch: 'The note changed since it was read; fetch it again and retry with the new hash.',
  validation_failed: 'An argument or a metadata field is invalid; the message names the field and the rule.',
  path_outside_vault: 'A path resolved outside the vault (.., an absolute path, a NUL byte or a symlink out).',
  conflict: 'The target already exists, or another writer holds it.',
  backend_unavailable: 'A storage or search backend could not be opened or reached.',
  capability_missing: 'The chosen backend lacks a capability this plugin or tool needs.',
  config_invalid: 'The configuration file or a CLI option is invalid; the message names the file and key.',
  plugin_dependency: 'A plugin depends on one that is not loaded, or plugins depend on each other in a cycle.',
  kernel_frozen: 'The kernel registry is frozen after start-up; register plugins before opening a vault.',
  read_only: 'The vault is served read-only.',
  timeout: 'The operation ran past its time limit and was stopped.',
  too_large: 'A message, a note or an answer is bigger than the configured size limit (limits.messageBytes).',
  internal: 'An unexpected failure; the log has the stack.',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export type ErrorDetails = Record<string, unknown>;

/** The JSON body every surface renders for a failed tool call. */
export interface ErrorBody {
  error: ErrorCode;
  message: string;
  [detail: string]: unknown;
}

export class NotekernelError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails;

  constructor(code: ErrorCode, message: string, details: ErrorDetails = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
    this.details = details;
  }

  toBody(): ErrorBody {
    return { error: this.code, message: this.message, ...this.details };
  }
}

export class NotFoundError extends NotekernelError {
  constructor(message: string, details?: ErrorDetails) {
    super('not_found', message, details);
  }
}

export class ContentHashMismatchError extends NotekernelError {
  constructor(currentHash: string, providedHash: string, details: ErrorDetails = {}) {
    super(
      'content_hash_mismatch',
      'Note content has been modified since last read. Please fetch the latest version.',
      { current_hash: currentHash, provided_hash: providedHash, ...details },
    );
  }
}

export class ValidationError extends NotekernelError {
  constructor(message: string, details?: ErrorDetails) {
    super('validation_failed', message, details);
  }
}

export class PathOutsideVaultError extends NotekernelError {
  constructor(path: string, reason: string) {
    super('path_outside_vault', `Path "${printable(path)}" is not allowed: ${reason}.`, { path: printable(path), reason });
  }
}

export class ConflictError extends NotekernelError {
  constructor(message: string, details?: ErrorDetails) {
    super('conflict', message, details);
  }
}

export class BackendUnavailableError extends NotekernelError {
  constructor(message: string, details?: ErrorDetails, cause?: unknown) {
    super('backend_unavailable', message, details, { cause });
  }
}

export class CapabilityError extends NotekernelError {
  constructor(message: string, details?: ErrorDetails) {
    super('capability_missing', message, details);
  }
}

export class ConfigError extends NotekernelError {
  constructor(message: string, details?: ErrorDetails) {
    super('config_invalid', message, details);
  }
}

export class PluginDependencyError extends NotekernelError {
  constructor(message: string, details?: ErrorDetails) {
    super('plugin_dependency', message, details);
  }
}

export class KernelFrozenError extends NotekernelError {
  constructor(what: string) {
    super('kernel_frozen', `Cannot ${what}: the vault's registry is frozen after start-up.`);
  }
}

export class ReadOnlyError extends NotekernelError {
  constructor(tool: string) {
    super('read_only', `Tool "${tool}" writes, and this vault is served read-only.`, { tool });
  }
}

export class TimeoutError extends NotekernelError {
  constructor(message: string, details?: ErrorDetails) {
    super('timeout', message, details);
  }
}

export class TooLargeError extends NotekernelError {
  constructor(message: string, details?: ErrorDetails) {
    super('too_large', message, details);
  }
}

/** Anything thrown that is not ours becomes `internal`, keeping the original as the cause. */
export function toNotekernelError(err: unknown): NotekernelError {
  if (err instanceof NotekernelError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new NotekernelError('internal', message, {}, { cause: err });
}

function printable(path: string): string {
  return path.replace(/\0/g, '\\0');
}
