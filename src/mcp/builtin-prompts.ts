/**
 * @module
 * Ready-made prompts (SPEC 17.6), offered when the vault's `prompts/` defines no prompt of the same
 * name: `find-note`, `weekly-review` (notes changed in the last 7 days and tasks due), `new-meeting-note`
 * (from the meeting template when one exists) and `tidy-links` (unresolved links and orphans). Each is
 * a request to the model naming the tools to use, with the dates filled in; pure but for the template
 * look-up, which the caller passes in.
 */

export interface BuiltinArgument {
  readonly name: string;
  readonly description: string;
  readonly required: boolean;
}

export interface BuiltinPrompt {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly arguments: readonly BuiltinArgument[];
  /** The message text; `args` holds the non-empty arguments given, `today` the server's local date. */
  render(args: Readonly<Record<string, string>>, today: string, meetingTemplate: string | null): string;
}

/** `date` (YYYY-MM-DD) moved by `days`. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export const BUILTIN_PROMPTS: readonly BuiltinPrompt[] = [
  {
    name: 'find-note',
    title: 'Find a note',
    description:
      'Finds the note that best matches a description (built in; a prompts/Find Note.md note replaces it).',
    arguments: [{ name: 'query', required: true, description: 'What the note is about, in your own words' }],
    render: (args) =>
      [
        `Find the note in my vault that best matches: "${args.query ?? ''}".`,
        'Use search_notes (Obsidian search syntax: try the key words, a phrase in quotes, tag:, [property:value], and a few other phrasings), then read_note on the most likely hits.',
        'Answer with the note name and one line on why it matches; if several fit, list the best three; if none does, say so and say what you searched for.',
      ].join('\n'),
  },
  {
    name: 'weekly-review',
    title: 'Weekly review',
    description:
      'Reviews the notes changed in the last 7 days and the tasks due (built in; a prompts/Weekly Review.md note replaces it).',
    arguments: [],
    render: (_args, today) =>
      [
        `Give me a weekly review of my vault. Today is ${today}.`,
        `1. What changed: list_changes with since "${addDays(today, -7)}T00:00:00" (follow nextCursor while more is true); group the notes by folder or topic and summarize each group in a line or two.`,
        `2. Tasks: list_tasks with overdue: true, then list_tasks with due_from "${today}" and due_to "${addDays(today, 7)}".`,
        '3. Close with what needs attention this week. Change nothing in the vault.',
      ].join('\n'),
  },
  {
    name: 'new-meeting-note',
    title: 'New meeting note',
    description:
      'Creates a meeting note from the meeting template when one exists (built in; a prompts/New Meeting Note.md note replaces it).',
    arguments: [{ name: 'title', required: false, description: 'The meeting, e.g. "Design review"' }],
    render: (args, today, template) =>
      [
        `Create a note for the meeting "${args.title ?? 'Meeting'}" on ${today}.`,
        template === null
          ? 'The vault has no meeting template: use create_note with a title, and a body with the headings Attendees, Agenda, Notes and Action items (action items as "- [ ]" tasks).'
          : `Use create_note with template: "${template}" (the vault's meeting template) and the title above.`,
        'Then tell me the name of the note you created.',
      ].join('\n'),
  },
  {
    name: 'tidy-links',
    title: 'Tidy links',
    description:
      'Finds unresolved links and orphan notes and proposes fixes (built in; a prompts/Tidy Links.md note replaces it).',
    arguments: [
      { name: 'folder', required: false, description: 'Only this folder (default: the whole vault)' },
    ],
    render: (args) => {
      const folder = args.folder === undefined ? '' : `, folder: "${args.folder}"`;
      return [
        'Help me tidy the links of my vault.',
        `1. list_links with kind: "unresolved"${folder}: for each link to nothing, find the note it most likely meant (search_notes) or say it should be created.`,
        `2. list_links with kind: "orphans"${folder}: for each note nothing links to, suggest a note that should link to it.`,
        'Propose the changes as a list first; make them (edit_note, with the etag you read) only after I agree.',
      ].join('\n');
    },
  },
];
