/**
 * seed 000's field filtering: core fields by name, `metadata.x` for one metadata key,
 * `metadata.*` for all of it; unknown names are ignored, an empty list keeps only `id`.
 * `always` names fields a tool keeps regardless (search results keep score, snippet, ...).
 */
export function filterFields<T extends Record<string, unknown>>(
  record: T,
  fields: readonly string[] | undefined,
  always: readonly string[] = [],
): Record<string, unknown> {
  if (fields === undefined) return record;
  const out: Record<string, unknown> = {};
  const wanted = fields.length === 0 ? ['id'] : fields;
  const metadata = record.metadata as Record<string, unknown> | undefined;
  let pickedMetadata: Record<string, unknown> | undefined;
  for (const field of [...always, ...wanted]) {
    if (field === 'metadata.*' || field === 'metadata') {
      if (metadata) pickedMetadata = { ...(pickedMetadata ?? {}), ...metadata };
    } else if (field.startsWith('metadata.')) {
      const key = field.slice('metadata.'.length);
      if (key && metadata && Object.hasOwn(metadata, key))
        pickedMetadata = { ...(pickedMetadata ?? {}), [key]: metadata[key] };
    } else if (Object.hasOwn(record, field)) {
      out[field] = record[field];
    }
  }
  if (pickedMetadata) out.metadata = pickedMetadata;
  return out;
}
