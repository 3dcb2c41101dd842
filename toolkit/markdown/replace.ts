/** Text with several non-overlapping ranges replaced at once (offsets into the original text). */
export function applyReplacements(
  text: string,
  replacements: ReadonlyArray<{ start: number; end: number; text: string }>,
): string {
  let out = '';
  let at = 0;
  for (const r of [...replacements].sort((a, b) => a.start - b.start)) {
    out += text.slice(at, r.start) + r.text;
    at = r.end;
  }
  return out + text.slice(at);
}
