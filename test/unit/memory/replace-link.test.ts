/**
 * Seed 002's `replaceLink(body, oldId, newId)` (US-003): every link to oldId points at newId,
 * display text kept; the seed's edge cases (several links per line, code, special characters
 * in display text, nested brackets) and the forms the shared parser also reads (embeds,
 * headings, escaped table pipes, the short form).
 */
import { describe, expect, it } from 'vitest';
import { replaceLink } from '../../../plugins/memory/replace-link.js';
import { outboundLinks } from '../../../plugins/memory/view.js';

const OLD = 'id__Kf9mNp';
const NEW = 'id__Axm001';

describe('replaceLink', () => {
  it("retargets the seed example's link and keeps its display text; other links stay", () => {
    const body =
      'igor is a fullstack developer with deep expertise in design.\nhe works on the [[id__Kf9mNp|console app]] at axiom.\n\nsee also: [[id__Qw2vBc|query builder decisions]]\n';
    expect(replaceLink(body, OLD, NEW)).toEqual({
      body: body.replace('[[id__Kf9mNp|console app]]', '[[id__Axm001|console app]]'),
      replaced: 1,
    });
  });

  it.each([
    ['short form', `see [[${OLD}]].`, `see [[${NEW}]].`, 1],
    [
      'several per line',
      `[[${OLD}|a]] and [[${OLD}|b]], [[id__Other1|c]]`,
      `[[${NEW}|a]] and [[${NEW}|b]], [[id__Other1|c]]`,
      2,
    ],
    [
      'special characters in display text',
      `[[${OLD}|Ünïcode — "quotes" & (parens) #notatag]]`,
      `[[${NEW}|Ünïcode — "quotes" & (parens) #notatag]]`,
      1,
    ],
    ['an embed keeps its !', `![[${OLD}|diagram]]`, `![[${NEW}|diagram]]`, 1],
    ['a heading anchor is kept', `[[${OLD}#Decisions|the decisions]]`, `[[${NEW}#Decisions|the decisions]]`, 1],
    ['an escaped table pipe stays escaped', `| a | [[${OLD}\\|console]] |`, `| a | [[${NEW}\\|console]] |`, 1],
    ['spaces inside the brackets', `[[ ${OLD} | spaced ]]`, `[[ ${NEW} | spaced ]]`, 1],
    ['a fenced code block is not a link', `\`\`\`\n[[${OLD}|in code]]\n\`\`\`\n`, null, 0],
    ['inline code is not a link', `\`[[${OLD}]]\``, null, 0],
    ['nested brackets are not a link', `[[[${OLD}]]]`, `[[[${NEW}]]]`, 1],
    ['a longer id that starts with oldId is another id', `[[${OLD}x|no]]`, null, 0],
    ['the id as plain text is not a link', `${OLD} was merged`, null, 0],
  ])('%s', (_name, body, expected, replaced) => {
    const out = replaceLink(body, OLD, NEW);
    expect(out).toEqual({ body: expected ?? body, replaced });
  });

  it('leaves the body alone when oldId and newId are the same', () => {
    const body = `[[${OLD}|x]]`;
    expect(replaceLink(body, OLD, OLD)).toEqual({ body, replaced: 0 });
  });

  it('the retargeted body lists the new id where the old one sat (extractLinks, with positions)', () => {
    const body = `one [[${OLD}|first]]\ntwo [[${OLD}]]\n`;
    const links = outboundLinks(replaceLink(body, OLD, NEW).body);
    expect(links.map((l) => l.id)).toEqual([NEW, NEW]);
    const after = replaceLink(body, OLD, NEW).body;
    expect(links.map((l) => after.slice(l.position.start, l.position.end))).toEqual([`[[${NEW}|first]]`, `[[${NEW}]]`]);
  });
});
