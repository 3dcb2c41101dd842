/** Hostile inputs shared by the containment tests. */

/** The classic "billion laughs": each level nine references to the one before; ~500 bytes. */
export function aliasBomb(levels = 12): string {
  const names = 'abcdefghijklmnopqrstuvwxyz';
  let text = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n';
  for (let i = 1; i < levels; i++)
    text += `${names[i]}: &${names[i]} [${Array(9)
      .fill(`*${names[i - 1]}`)
      .join(',')}]\n`;
  return text;
}
