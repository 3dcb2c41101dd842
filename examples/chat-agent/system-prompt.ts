/**
 * The system prompt: what the agent is for, what to do with the tools it has that call for a
 * habit (saving preferences, logging to the daily note, as seed 004's agent did), then the
 * user's preferences as their own section — under one heading, whoever wrote the text.
 */

const ROLE = `You are an assistant for the user's notes, which you reach only through the tools you are given.
Search and read notes before answering questions about them, and name the notes you used.
Answer briefly. If the notes do not hold the answer, say so.`;

const HABITS = new Map([
  ['save_preference', 'When the user corrects you or says how they like things done, save it with save_preference.'],
  [
    'log_interaction',
    'After answering a question about the notes, record it with log_interaction (the notes you used in `files`).',
  ],
]);

/**
 * The frame a server may already put around the preferences (notekernel's `user_preferences`
 * prompt sends a whole section: its heading, a lead-in, or a line saying none are saved), and a
 * `# Preferences` title in the file: dropped, so the section has one heading and one lead-in.
 */
const FRAME = [
  /^#{1,6}\s*(user\s+)?preferences\s*:?\s*$/i,
  /^follow these preferences\b.*:\s*$/i,
  /^(user\s+)?preferences:\s*none saved\b/i,
];

export function preferenceLines(text: string): string {
  return text
    .split(/\r?\n/)
    .filter((line) => !FRAME.some((frame) => frame.test(line.trim())))
    .join('\n')
    .trim();
}

export function systemPrompt(preferences: string, toolNames: readonly string[] = []): string {
  const habits = toolNames.flatMap((name) => HABITS.get(name) ?? []);
  const role = [ROLE, ...habits].join('\n');
  const lines = preferenceLines(preferences);
  if (!lines) return role;
  return `${role}\n\n## User Preferences\nFollow these preferences the user has saved:\n${lines}`;
}
