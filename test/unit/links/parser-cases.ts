/**
 * The parser table: every link and tag form of issue 5 and its edge cases. Each case lists
 * everything the scanner must find in `text`, summarised as short strings (see parser.test.ts):
 *   links     `<kind> <target>[#heading][^block][|alias][ id=<ref>]`
 *   externals `<kind> <url>[ "title"]`
 *   tags      the tag without `#`
 * `at` pins `line:column` of every match, in document order (links, then externals, then tags).
 */
export interface ParserCase {
  name: string;
  text: string;
  links?: string[];
  externals?: string[];
  tags?: string[];
  at?: string[];
}

const FENCE = '```';

export const PARSER_CASES: ParserCase[] = [
  // wikilinks
  { name: 'plain wikilink', text: 'See [[Target]].', links: ['wikilink Target'], at: ['1:5'] },
  { name: 'alias', text: '[[Target|shown text]]', links: ['wikilink Target|shown text'] },
  { name: 'heading', text: '[[Target#Heading]]', links: ['wikilink Target#Heading'] },
  { name: 'heading and alias', text: '[[Target#Some Heading|alias]]', links: ['wikilink Target#Some Heading|alias'] },
  { name: 'block reference', text: '[[Target#^abc123]]', links: ['wikilink Target^abc123'] },
  { name: 'block reference with alias', text: '[[Target#^abc123|quote]]', links: ['wikilink Target^abc123|quote'] },
  { name: 'nested heading path', text: '[[Target#Part#Sub]]', links: ['wikilink Target#Part#Sub'] },
  { name: 'empty anchor', text: '[[Target#]]', links: ['wikilink Target'] },
  { name: 'embed of a note', text: '![[Embedded Note]]', links: ['embed Embedded Note'] },
  { name: 'embed of a heading', text: '![[Embedded Note#Intro]]', links: ['embed Embedded Note#Intro'] },
  { name: 'embed of an image file is an attachment', text: '![[diagram.png]]', externals: ['embed diagram.png'] },
  {
    name: 'link to a pdf is an attachment',
    text: '[[report.pdf|the report]]',
    externals: ['url report.pdf "the report"'],
  },
  {
    name: 'id link with text (seed 002)',
    text: 'works on the [[id__Kf9mNp|console app]].',
    links: ['wikilink id__Kf9mNp|console app id=id__Kf9mNp'],
  },
  { name: 'id link, short form', text: '[[id__Qw2vBc]]', links: ['wikilink id__Qw2vBc id=id__Qw2vBc'] },
  { name: 'id link, too short: malformed', text: '[[id__ab12]] and [[id__Ab3xYz7]]', links: [] },
  { name: 'id link, bad characters: malformed', text: '[[id__ab-12c|x]]', links: [] },
  {
    name: 'two links on one line',
    text: '[[One]] and [[Two|2]]',
    links: ['wikilink One', 'wikilink Two|2'],
    at: ['1:1', '1:13'],
  },
  {
    name: 'line numbers across lines',
    text: 'first\n\nthird [[A]]\nfourth [[B]]',
    links: ['wikilink A', 'wikilink B'],
    at: ['3:7', '4:8'],
  },
  { name: 'CRLF line endings', text: 'one\r\ntwo [[A]]\r\n', links: ['wikilink A'], at: ['2:5'] },
  {
    name: 'whitespace inside brackets is trimmed',
    text: '[[  Spaced Target  |  alias  ]]',
    links: ['wikilink Spaced Target|alias'],
  },
  { name: 'unicode title', text: '[[Café — naïve 日本語]]', links: ['wikilink Café — naïve 日本語'] },
  { name: 'emoji title', text: '[[🚀 Launch plan|🚀]]', links: ['wikilink 🚀 Launch plan|🚀'] },
  { name: 'escaped pipe in a table', text: '| a | [[Target\\|alias]] |', links: ['wikilink Target|alias'] },
  { name: 'second pipe belongs to the alias', text: '[[Target|a|b]]', links: ['wikilink Target|a|b'] },
  { name: 'empty alias', text: '[[Target|]]', links: ['wikilink Target'] },
  { name: 'empty link', text: '[[]] and [[ ]]', links: [] },
  { name: 'same-note heading link', text: '[[#Heading]] and [[#^block]]', links: [] },
  { name: 'alias without target', text: '[[|alias]]', links: [] },
  { name: 'unclosed', text: '[[Target and more', links: [] },
  { name: 'half closed', text: '[[Target] and [Target]]', links: [] },
  { name: 'line break inside', text: '[[Tar\nget]]', links: [] },
  { name: 'nested brackets keep the inner link', text: '[[outer [[inner]] rest]]', links: ['wikilink inner'] },
  { name: 'triple brackets', text: '[[[Target]]]', links: ['wikilink Target'] },
  { name: 'bracket inside target is malformed', text: '[[a]b]]', links: [] },
  { name: 'backslash-escaped', text: '\\[[Not a link]] but [[Link]]', links: ['wikilink Link'] },
  { name: 'target with .md', text: '[[Target.md]]', links: ['wikilink Target.md'] },
  { name: 'target with a folder', text: '[[projects/Plan]]', links: ['wikilink projects/Plan'] },
  { name: 'version number is not an extension', text: '[[Release v1.2]]', links: ['wikilink Release v1.2'] },
  // code
  {
    name: 'fenced block',
    text: `before [[A]]\n${FENCE}\n[[B]] #tag https://x.y\n${FENCE}\nafter [[C]]`,
    links: ['wikilink A', 'wikilink C'],
  },
  { name: 'tilde fence', text: '~~~md\n[[B]]\n~~~\n[[C]]', links: ['wikilink C'] },
  { name: 'longer closing fence', text: '````\n```\n[[B]]\n````\n[[C]]', links: ['wikilink C'] },
  { name: 'unclosed fence runs to the end', text: `[[A]]\n${FENCE}js\n[[B]]\n#tag`, links: ['wikilink A'] },
  {
    name: 'fence indented in a list item',
    text: `- item\n  ${FENCE}\n  [[B]]\n  ${FENCE}\n- [[C]]`,
    links: ['wikilink C'],
  },
  { name: 'inline code', text: 'use `[[Target]]` or [[Real]]', links: ['wikilink Real'] },
  { name: 'double-backtick span holding a backtick', text: '``a ` [[B]]`` then [[C]]', links: ['wikilink C'] },
  { name: 'unmatched backtick is literal', text: "it's a ` tick [[A]]", links: ['wikilink A'] },
  { name: 'code span does not cross a blank line', text: 'a `b\n\n[[A]] c`', links: ['wikilink A'] },
  { name: 'link straddling a code span', text: '[[a `b]]` [[C]]', links: ['wikilink C'] },
  { name: 'tag and url in inline code', text: '`#notag https://x.y` #yes', tags: ['yes'] },
  // markdown links, images, URLs
  { name: 'markdown link', text: '[Example](https://example.com)', externals: ['url https://example.com "Example"'] },
  {
    name: 'markdown link with title',
    text: '[Example](https://example.com "Home")',
    externals: ['url https://example.com "Example"'],
  },
  {
    name: 'image',
    text: '![a cat](https://img.example/cat.png)',
    externals: ['image https://img.example/cat.png "a cat"'],
  },
  { name: 'local image', text: '![](attachments/cat.png)', externals: ['image attachments/cat.png'] },
  {
    name: 'angle-bracket destination',
    text: '[x](<https://example.com/a b>)',
    externals: ['url https://example.com/a b "x"'],
  },
  {
    name: 'balanced parentheses in a URL',
    text: '[Foo](https://en.wikipedia.org/wiki/Foo_(bar))',
    externals: ['url https://en.wikipedia.org/wiki/Foo_(bar) "Foo"'],
  },
  {
    name: 'badge: image inside a link',
    text: '[![build](https://ci.example/b.svg)](https://ci.example/job)',
    externals: [
      'url https://ci.example/job "![build](https://ci.example/b.svg)"',
      'image https://ci.example/b.svg "build"',
    ],
  },
  { name: 'markdown link to a note', text: 'see [the plan](plan.md)', links: ['markdown plan.md|the plan'] },
  {
    name: 'markdown link to a note with encoding and fragment',
    text: '[s](../general/My%20Note.md#Next%20Steps)',
    links: ['markdown ../general/My Note.md#Next Steps|s'],
  },
  { name: 'same-note anchor is not a link', text: '[jump](#section)', externals: [], links: [] },
  { name: 'mailto', text: '[mail me](mailto:a@example.com)', externals: ['url mailto:a@example.com "mail me"'] },
  { name: 'wikilink followed by parentheses', text: '[[Target]](not a destination)', links: ['wikilink Target'] },
  {
    name: 'bare URL, trailing period dropped',
    text: 'Go to https://example.com/path.',
    externals: ['url https://example.com/path'],
  },
  { name: 'bare URL in parentheses', text: '(see https://example.com/x)', externals: ['url https://example.com/x'] },
  {
    name: 'bare URL keeps balanced parentheses',
    text: 'https://en.wikipedia.org/wiki/Foo_(bar), ok',
    externals: ['url https://en.wikipedia.org/wiki/Foo_(bar)'],
  },
  { name: 'autolink', text: '<https://example.com/a>', externals: ['url https://example.com/a'] },
  {
    name: 'URL inside a wikilink alias is not separate',
    text: '[[Note|https://example.com]]',
    links: ['wikilink Note|https://example.com'],
  },
  {
    name: 'escaped markdown link text falls back to the bare URL',
    text: '\\[x](https://example.com)',
    externals: ['url https://example.com'],
  },
  {
    name: 'mixed line: every kind, in order',
    text: '[[A]] ![i](i.png) [b](https://b.example) https://c.example #t',
    links: ['wikilink A'],
    externals: ['image i.png "i"', 'url https://b.example "b"', 'url https://c.example'],
    tags: ['t'],
    at: ['1:1', '1:7', '1:19', '1:42', '1:60'],
  },
  // tags
  { name: 'simple tag', text: 'a #topic here', tags: ['topic'], at: ['1:3'] },
  { name: 'namespaced tag', text: '#area__work #topic__design', tags: ['area__work', 'topic__design'] },
  { name: 'nested tag', text: '#a/b and #project/alpha/beta', tags: ['a/b', 'project/alpha/beta'] },
  { name: 'heading is not a tag', text: '# Title\n## Subtitle\n###### Deep', tags: [] },
  { name: 'tag at the start of a line', text: '#people #work\n\nbody', tags: ['people', 'work'], at: ['1:1', '1:9'] },
  { name: 'tag inside a heading line', text: '## Plans #q3', tags: ['q3'] },
  { name: 'word then hash is not a tag', text: 'C# and a#b', tags: [] },
  { name: 'hex colours', text: 'color: #ff0000; bg #1e90ff; #ffffff #DEADBEEF', tags: [] },
  { name: 'short all-letter hex is a word', text: '#bad #cafe #fff', tags: ['bad', 'cafe', 'fff'] },
  { name: 'digits only', text: 'issue #5 and #2024 and #2024/01', tags: [] },
  { name: 'digits then letters', text: '#1st #3d-printing', tags: ['1st', '3d-printing'] },
  {
    name: 'URL fragment',
    text: 'https://example.com/page#section and https://x.example/#/route',
    externals: ['url https://example.com/page#section', 'url https://x.example/#/route'],
    tags: [],
  },
  {
    name: 'markdown link fragment',
    text: '[docs](https://example.com/#install)',
    externals: ['url https://example.com/#install "docs"'],
    tags: [],
  },
  {
    name: 'wikilink heading is not a tag',
    text: '[[Note#Heading]] [[#Local]]',
    tags: [],
    links: ['wikilink Note#Heading'],
  },
  { name: 'HTML entity', text: 'it&#39;s &#x27;', tags: [] },
  {
    name: 'punctuation around tags',
    text: '(#one), **#two**, "#three"; [#four]',
    tags: ['one', 'two', 'three', 'four'],
  },
  { name: 'trailing punctuation and slash', text: 'done #tag. next #dir/ end', tags: ['tag', 'dir'] },
  { name: 'unicode tags', text: '#café #日本語 #naïve_idea', tags: ['café', '日本語', 'naïve_idea'] },
  { name: 'adjacent hashes', text: '#a#b ##c', tags: ['a'] },
  { name: 'escaped hash', text: '\\#literal #real', tags: ['real'] },
  { name: 'tag in a fenced block', text: `${FENCE}\n#notag\n${FENCE}\n#tag`, tags: ['tag'] },
];
