/** Seed 000's default note types, written by `notekernel init`, plus `general`. */

export interface DefaultType {
  name: string;
  purpose: string;
  instructions: string[];
  schema: string[];
}

export const DEFAULT_TYPES: readonly DefaultType[] = [
  {
    name: 'general',
    purpose: 'General-purpose notes for thoughts, ideas and anything that fits no other type.',
    instructions: [
      'Suggest a more specific note type when the content clearly fits one',
      'Keep titles short and descriptive',
      'Suggest links to related notes',
    ],
    schema: ['tags: Relevant tags for categorization (optional, array)'],
  },
  {
    name: 'daily',
    purpose: 'Track daily events, reflections, and activities',
    instructions: [
      'Ask about key events and accomplishments from the day',
      'Encourage reflection on lessons learned or insights gained',
      'Help identify priorities for the next day',
      'Suggest connections to previous daily entries when relevant',
    ],
    schema: [
      'date: Date of entry (required, date, format: YYYY-MM-DD)',
      'mood: Daily mood rating (optional, select, options: ["excellent", "good", "neutral", "challenging", "difficult"])',
      'energy_level: Energy level (optional, number, min: 1, max: 10)',
      'tags: Topics or themes (optional, array)',
    ],
  },
  {
    name: 'reading',
    purpose: 'Track articles, papers, books, and other reading material',
    instructions: [
      'Always ask for author information and publication context',
      'Extract and organize key insights and takeaways',
      'Request a personal rating and ask what made it memorable',
      'Suggest connections to other readings or note types',
      'Encourage noting specific quotes with page/section references',
    ],
    schema: [
      'title: Title of the material (required, string)',
      'author: Author or creator (required, string)',
      // Seed 000 calls this field `type`, which every note's frontmatter already uses for its note
      // type (reading): `reading_type` keeps the meaning and the options (decision 003).
      'reading_type: Type of reading (required, select, options: ["book", "article", "paper", "blog_post", "documentation"])',
      'status: Reading status (required, select, options: ["to_read", "reading", "completed", "abandoned"])',
      'rating: Personal rating (required, number, min: 1, max: 5)',
      'tags: Categories or topics (optional, array)',
      'isbn: ISBN for books (optional, string)',
      'url: Web link for online content (optional, string)',
      'published_date: Publication date (optional, date)',
    ],
  },
  {
    name: 'todos',
    purpose: 'Track tasks, action items, and things that need to be done',
    instructions: [
      'Help break down large tasks into smaller, actionable items',
      'Ask about priorities and deadlines',
      'Suggest realistic timeframes and dependencies',
      'Encourage regular status updates and progress tracking',
      'Connect related todos and identify recurring patterns',
    ],
    schema: [
      'title: Task or todo list name (required, string)',
      'priority: Priority level (required, select, options: ["low", "medium", "high", "urgent"])',
      'status: Current status (required, select, options: ["not_started", "in_progress", "completed", "on_hold", "cancelled"])',
      'due_date: Target completion date (optional, date)',
      'tags: Categories or contexts (optional, array)',
      'estimated_time: Time estimate in minutes (optional, number, min: 1)',
    ],
  },
  {
    name: 'projects',
    purpose: 'Track ongoing projects, goals, and long-term initiatives',
    instructions: [
      'Ask about project scope, goals, and success criteria',
      'Help identify key milestones and deadlines',
      'Encourage breaking projects into manageable phases',
      'Suggest resource gathering and stakeholder identification',
      'Track progress and help identify blockers or risks',
    ],
    schema: [
      'title: Project name (required, string)',
      'status: Current status (required, select, options: ["planning", "active", "on_hold", "completed", "cancelled"])',
      'priority: Priority level (optional, select, options: ["low", "medium", "high"])',
      'start_date: Project start date (optional, date)',
      'target_date: Target completion date (optional, date)',
      'team_members: People involved (optional, array)',
      'tags: Project categories or skills (optional, array)',
    ],
  },
  {
    name: 'goals',
    purpose: 'Track long-term personal and professional goals',
    instructions: [
      'Help define specific, measurable, achievable goals',
      'Ask about motivation and personal significance',
      'Encourage breaking goals into smaller milestones',
      'Suggest regular check-ins and progress reviews',
      'Help identify potential obstacles and mitigation strategies',
      'Connect goals to daily actions and habits',
    ],
    schema: [
      'title: Goal name (required, string)',
      'category: Goal category (required, select, options: ["personal", "professional", "health", "financial", "learning", "relationships"])',
      'timeline: Target timeframe (required, select, options: ["short_term", "medium_term", "long_term"])',
      'status: Current status (required, select, options: ["not_started", "in_progress", "achieved", "on_hold", "abandoned"])',
      'target_date: Target achievement date (optional, date)',
      'progress: Progress percentage (optional, number, min: 0, max: 100)',
      'tags: Related themes or skills (optional, array)',
    ],
  },
];

/** The line seed 000 (and earlier versions of `init`) wrote, which no note could satisfy. */
export const OLD_READING_TYPE_LINE =
  'type: Type of reading (required, select, options: ["book", "article", "paper", "blog_post", "documentation"])';
export const READING_TYPE_LINE = OLD_READING_TYPE_LINE.replace(/^type:/, 'reading_type:');

export const WELCOME_NOTE = {
  type: 'general',
  title: 'Welcome to your vault',
  content: `# Welcome to your vault

This vault keeps your notes as plain markdown files, one folder per note type:

- **daily/** — daily events, reflections and activities
- **reading/** — books, articles and papers you read
- **todos/** — tasks and action items
- **projects/** — ongoing projects and initiatives
- **goals/** — long-term personal and professional goals
- **general/** — everything else

Each folder's \`_description.md\` tells an AI agent what the type is for, how to help with it,
and which metadata fields its notes carry. Edit those files (or ask your agent to) to shape
how your notes are kept.

The index in \`.flint-note/\` is only a cache: delete it and it is rebuilt from the files.
`,
};
