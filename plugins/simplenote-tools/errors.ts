/** The typed errors of seed 003's tools, on the kernel's error codes. */
import { ConflictError, ValidationError } from '../../kernel/errors.js';

/** The note is no longer at the version the caller read: nothing was written. */
export class VersionConflictError extends ConflictError {
  constructor(
    id: string,
    provided: number,
    current: number | undefined,
    field: 'local_version' | 'server_version' = 'local_version',
  ) {
    super(
      `Note ${id} is at version ${current ?? 'unknown'} now, not ${field} ${provided}: it changed since you read it (on another device, or by another call). Nothing was written.`,
      {
        field,
        id,
        provided_version: provided,
        ...(current !== undefined ? { current_local_version: current } : {}),
        hint: 'Call get for this id, then apply your change again to the text it returns, with its local_version.',
      },
    );
  }
}

export function invalid(field: string, message: string): ValidationError {
  return new ValidationError(`${field}: ${message}`, { field });
}
