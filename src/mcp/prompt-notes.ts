/**
 * @module
 * Prompt notes as MCP prompts (SPEC 9.1), pure: names from file names, metadata from frontmatter,
 * arguments from the scope, and the template filled in. prompts.ts wires it to the protocol.
 *
 * The template is the note's body (after the frontmatter). `{{selection}}`, `{{note}}` and `{{date}}`
 * are replaced in one pass, so a value that itself contains `{{date}}` stays as it is.
 */
import type { JsonValue } from '../markdown/frontmatter/frontmatter.js';
import { parseFrontmatter } from '../markdown/frontmatter/frontmatter.js';

export type PromptScope = 'selection' | 'text' | 'note';

export const SCOPES: readonly PromptScope[] = ['selection', 'text', 'note'];

export interface VaultPrompt {
  /** The MCP prompt name: the file name lower-cased, words joined by dashes; `-2`, `-3` on repeats. */
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly scope: PromptScope;
  /** The note the prompt comes from. */
  readonly source: string;
  readonly template: string;
}

export interface PromptArgumentInfo {
  readonly name: 'selection' | 'note';
  readonly description: string;
  readonly required: boolean;
}

/** A prompt note as the gate gives it. */
export interface PromptSource {
  readonly name: string;
  readonly text: string;
  /** The file name without folder and note ending. */
  readonly fileTitle: string;
}

/**
 * The prompt name a note's file name (without folder and ending) gives: lower-cased, every run of
 * characters that are not letters or digits (any script) becomes one dash, dashes trimmed.
 *
 * @example
 * promptNameOf('Fix Grammar (short)') // 'fix-grammar-short'
 */
export function promptNameOf(fileTitle: string): string {
  const words = fileTitle
    .normalize('NFC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}\p{M}]+/u)
    .filter((w) => w !== '');
  return words.length === 0 ? 'prompt' : words.join('-');
}

/**
 * Prompts from notes already sorted by path. Each note whose name is still free takes it, in path
 * order; the repeats then get `-2`, `-3`… in path order, skipping any name already taken — so a note
 * literally named "x 2" keeps "x-2" and the second "x" becomes "x-3".
 */
export function buildPrompts(notes: readonly PromptSource[]): VaultPrompt[] {
  const used = new Set<string>();
  const names: (string | undefined)[] = notes.map((note) => {
    const base = promptNameOf(note.fileTitle);
    if (used.has(base)) return undefined;
    used.add(base);
    return base;
  });
  return notes.map((note, i) => {
    let name = names[i];
    if (name === undefined) {
      const base = promptNameOf(note.fileTitle);
      let n = 2;
      while (used.has(`${base}-${n}`)) n++;
      name = `${base}-${n}`;
      used.add(name);
    }
    return promptOf(note, name);
  });
}

function promptOf(note: PromptSource, name: string): VaultPrompt {
  const fm = parseFrontmatter(note.text);
  const data = fm.data ?? {};
  const title = textOf(data.title) ?? note.fileTitle;
  const scopeWord = textOf(data.scope)?.toLowerCase();
  const scope = SCOPES.find((s) => s === scopeWord) ?? 'text';
  const description = textOf(data.description) ?? `The prompt in the note ${note.name}.`;
  return { name, title, description, scope, source: note.name, template: fm.body.trim() };
}

function textOf(value: JsonValue | undefined): string | undefined {
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** Which of the placeholders `{{selection}}` and `{{note}}` a template uses. */
export function usedVariables(template: string): { selection: boolean; note: boolean } {
  return {
    selection: /\{\{\s*selection\s*\}\}/.test(template),
    note: /\{\{\s*note\s*\}\}/.test(template),
  };
}

/**
 * The arguments a prompt takes, as prompts/list shows them: the variables its text uses (SPEC 17.6),
 * read by its scope. `selection` only when the text uses `{{selection}}`, `note` only when it uses
 * `{{note}}`; a text-scope prompt's two fill each other in (the selection, else the note's text), so
 * it offers both when it uses either. A text without placeholders takes no argument.
 */
export function promptArguments(prompt: Pick<VaultPrompt, 'scope' | 'template'>): PromptArgumentInfo[] {
  const used = usedVariables(prompt.template);
  const note = (required: boolean, what: string): PromptArgumentInfo => ({
    name: 'note',
    required,
    description: `${what} (its path, e.g. "inbox/idea"; the ending is optional)`,
  });
  if (prompt.scope === 'selection') {
    return [
      ...(used.selection
        ? [
            {
              name: 'selection' as const,
              required: true,
              description: 'The selected text the prompt works on',
            },
          ]
        : []),
      ...(used.note ? [note(false, 'A note whose text fills {{note}}')] : []),
    ];
  }
  if (prompt.scope === 'note') return used.note ? [note(true, 'The note the prompt works on')] : [];
  if (!used.selection && !used.note) return [];
  return [
    {
      name: 'selection',
      required: false,
      description: "The text to work on; without it, the note's text is used",
    },
    note(false, 'The note to work on when no selection is given'),
  ];
}

/** The values a prompt is filled with; `noteText` is the named note's text, read through the gate. */
export interface PromptValues {
  readonly selection?: string;
  readonly noteText?: string;
  readonly date: string;
}

/**
 * The prompt text with its placeholders filled in, by scope:
 * - selection: `{{selection}}` the selection; `{{note}}` the note's text, or "".
 * - text: the selection if given, else the note's text — whichever placeholder the template uses
 *   (`{{selection}}` falls back to the note, `{{note}}` to the selection).
 * - note: `{{note}}` the note's text; the selection is ignored (`{{selection}}` is "").
 */
export function fillPrompt(prompt: VaultPrompt, values: PromptValues): string {
  let selection: string;
  let note: string;
  if (prompt.scope === 'note') {
    selection = '';
    note = values.noteText ?? '';
  } else if (prompt.scope === 'text') {
    selection = values.selection ?? values.noteText ?? '';
    note = values.noteText ?? values.selection ?? '';
  } else {
    selection = values.selection ?? '';
    note = values.noteText ?? '';
  }
  const fill: Record<string, string> = { selection, note, date: values.date };
  return prompt.template.replace(
    /\{\{\s*(selection|note|date)\s*\}\}/g,
    (_m, key: string) => fill[key] ?? '',
  );
}
