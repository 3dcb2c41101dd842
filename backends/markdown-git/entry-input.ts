/** Checks on what a caller asks markdown-git to write, before anything touches the disk. */
import { ValidationError } from '../../kernel/errors.js';
import type { Metadata } from '../../kernel/note.js';
import { assertOrgName, type Placement } from '../../toolkit/agent-memory/entry-name.js';

/** Only where a file sits is "metadata" here; anything else would be silently lost. */
export function placementFrom(metadata: Metadata | undefined, base: Placement): Placement {
  const placement: Placement = { ...base };
  for (const [key, value] of Object.entries(metadata ?? {})) {
    if (key === 'status' && (value === 'active' || value === 'archived')) placement.status = value;
    else if (key === 'org' && typeof value === 'string') placement.org = assertOrgName(value);
    else if (key === 'org' && value === null) delete placement.org;
    else {
      throw new ValidationError(
        `markdown-git entries are pure markdown and store no metadata: "${key}" cannot be kept. Only "status" (active | archived) and "org" (a folder under orgs/) are set, by moving the file; put other facts in the body or in #tags.`,
        { field: `metadata.${key}` },
      );
    }
  }
  return placement;
}

export function assertText(content: string): void {
  if (content.includes('\0'))
    throw new ValidationError('content contains a NUL byte, which an entry file cannot hold.', { field: 'content' });
}
