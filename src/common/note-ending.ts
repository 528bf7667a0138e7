/**
 * @module
 * The file ending of a vault's notes (SPEC 11.1): `.md` in a Markdown vault, `.html` in an HTML vault.
 * Every rule about note names (SPEC 1.3), link resolution (OBSIDIAN.md §1.2) and titles is written
 * once over this ending instead of spelling `.md`; the vault's format decides it once, at open.
 */

export type NoteEnding = '.md' | '.html';

/**
 * True when the file name ends in `ending`, in any case, and has something before it.
 *
 * @example
 * hasEnding('a/Plan.MD', '.md') // true
 * hasEnding('.md', '.md') // false
 */
export function hasEnding(name: string, ending: NoteEnding): boolean {
  return name.length > ending.length && name.slice(-ending.length).toLowerCase() === ending;
}

/**
 * The name without a trailing `ending` (any case); the name itself when it has none.
 *
 * @example
 * withoutEnding('a/Plan.html', '.html') // 'a/Plan'
 */
export function withoutEnding(name: string, ending: NoteEnding): string {
  return hasEnding(name, ending) ? name.slice(0, -ending.length) : name;
}
