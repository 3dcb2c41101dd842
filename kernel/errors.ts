/**
 * One error tree: a stable code (the catalogue below, kept in sync with docs/errors.md by a test)
 * and serialisable details, so every surface renders an error the same way.
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
  read_only:
    'The vault is served read-only: by option, or because its folder or file system cannot be written (the message says which).',
  no_space: 'The disk or the quota is full: nothing was written; free space and retry.',
  permission_denied: 'The operating system refused access to a file or folder; the message names it.',
  timeout: 'The operation ran past its time limit and was stopped.',
  too_large: 'A message, a note or an answer is bigger than the configured size limit (limits.messageBytes).',
  input_needed:
    'The tool needs an answer from the user first; a surface that cannot ask (the CLI) reports the question.',
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
    super('content_hash_mismatch', 'Note content has been modified since last read. Please fetch the latest version.', {
      current_hash: currentHash,
      provided_hash: providedHash,
      ...details,
    });
  }
}

export class ValidationError extends NotekernelError {
  constructor(message: string, details?: ErrorDetails) {
    super('validation_failed', message, details);
  }
}

export class PathOutsideVaultError extends NotekernelError {
  constructor(path: string, reason: string) {
    super('path_outside_vault', `Path "${printable(path)}" is not allowed: ${reason}.`, {
      path: printable(path),
      reason,
    });
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
  /** `reason`: why the vault is read-only when no option asked for it (its folder cannot be written). */
  constructor(tool: string, reason?: string) {
    super('read_only', `Tool "${tool}" writes, and this vault is served read-only${reason ? `: ${reason}` : ''}.`, {
      tool,
      ...(reason ? { reason } : {}),
    });
  }
}

export class TimeoutError extends NotekernelError {
  constructor(message: string, details?: ErrorDetails) {
    super('timeout', message, details);
  }
}

/**
 * What a tool asks: the user, a form (a message and the flat JSON schema of the answer's fields);
 * the client's model, a completion of `prompt` (answered as `{ text }`); or the client's roots
 * (answered as `{ roots }`). An optional question a client cannot be asked reads as declined.
 */
export type Question = { message: string; optional?: boolean } & (
  | {
      kind?: 'form';
      schema: { type: 'object'; properties: Record<string, Record<string, unknown>>; required?: string[] };
    }
  | { kind: 'completion'; prompt: string; maxTokens: number }
  | { kind: 'roots' }
);

/**
 * Thrown by a tool that needs answers before it can go on. A surface that can ask (MCP: an
 * input-required result, or the client's elicitation in 2025) asks and calls the tool again with
 * `answers` keyed as the questions were; one that cannot renders the questions as the error.
 */
export class InputNeededError extends NotekernelError {
  constructor(
    readonly questions: Record<string, Question>,
    message = Object.values(questions)[0]?.message ?? 'The tool needs an answer.',
  ) {
    super('input_needed', message, { questions });
  }
}

export class TooLargeError extends NotekernelError {
  constructor(message: string, details?: ErrorDetails) {
    super('too_large', message, details);
  }
}

/** What the operating system or SQLite says, as the catalogue names it. */
const SYSTEM_FAULTS: Record<string, { code: ErrorCode; cause: string }> = {
  ENOSPC: { code: 'no_space', cause: 'no space left on the device' },
  EDQUOT: { code: 'no_space', cause: 'the disk quota is exceeded' },
  SQLITE_FULL: { code: 'no_space', cause: 'no space left on the device' },
  EACCES: { code: 'permission_denied', cause: 'permission denied' },
  EPERM: { code: 'permission_denied', cause: 'operation not permitted' },
  SQLITE_PERM: { code: 'permission_denied', cause: 'permission denied' },
  EROFS: { code: 'read_only', cause: 'the file system is read-only' },
  SQLITE_READONLY: { code: 'read_only', cause: 'the index file cannot be written' },
  ENAMETOOLONG: { code: 'validation_failed', cause: 'the name is too long for the file system' },
};

/** The catalogue entry for a system error code (`SQLITE_READONLY_DIRECTORY` counts as `SQLITE_READONLY`). */
function systemFaultOf(err: unknown): { code: ErrorCode; cause: string; errno: string } | undefined {
  const errno = (err as { code?: unknown } | undefined)?.code;
  if (typeof errno !== 'string') return undefined;
  const known = SYSTEM_FAULTS[errno] ?? SYSTEM_FAULTS[errno.replace(/^(SQLITE_[A-Z]+)_.*$/, '$1')];
  return known && { ...known, errno };
}

/** A system error as the catalogue names it, naming `file` (vault-relative where known) and the cause. */
export function systemFault(err: unknown, file?: string): NotekernelError | undefined {
  const fault = systemFaultOf(err);
  if (!fault) return undefined;
  const where = file ?? ((err as { path?: unknown }).path as string | undefined);
  const shown = where === undefined ? undefined : shortened(printable(where));
  const message = shown ? `${shown}: ${fault.cause}.` : `${fault.cause[0]?.toUpperCase()}${fault.cause.slice(1)}.`;
  return new NotekernelError(
    fault.code,
    message,
    { ...(shown ? { path: shown } : {}), cause: fault.errno },
    { cause: err },
  );
}

/** Anything thrown that is not ours becomes `internal` (or its system fault), keeping the original as the cause. */
export function toNotekernelError(err: unknown): NotekernelError {
  if (err instanceof NotekernelError) return err;
  const fault = systemFault(err);
  if (fault) return fault;
  const message = err instanceof Error ? err.message : String(err);
  return new NotekernelError('internal', message, {}, { cause: err });
}

/** A path as a message shows it: a name too long for the file system is not quoted whole. */
function shortened(path: string): string {
  return path.length <= 300 ? path : `${path.slice(0, 200)}…${path.slice(-60)} (${path.length} characters)`;
}

function printable(path: string): string {
  return path.replace(/\0/g, '\\0');
}
