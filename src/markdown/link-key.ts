/**
 * @module
 * The lookup keys that let an index find, with one or two indexed look-ups, every file a link could
 * resolve to and every link that could resolve to a file (OBSIDIAN.md §1.2 rule 2). Resolution itself
 * stays in `resolve.ts`; these keys only narrow the candidates handed to it. `ending` is the vault's
 * note ending (`.md`, or `.html` in an HTML vault), which rule 2 appends to a name without a dot.
 */
import type { NoteEnding } from '../common/note-ending.js';

/**
 * NFC and lower case, the form every file-name comparison of §1.2 uses; ASCII text skips the
 * normalisation, which is the costly half.
 *
 * @example
 * foldName('Cafe\u0301.md') // 'café.md'
 */
export function foldName(text: string): string {
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7f) return text.normalize('NFC').toLowerCase();
  }
  return text.toLowerCase();
}

/**
 * The key a link is filed under: the folded last path segment of its linkpath, with `.md` appended
 * when that segment holds no `.`. Rule 2 looks a dotted name up as written and then with `.md`, an
 * undotted name only with `.md`, so the files a link may reach are those whose folded file name is
 * the key or the key plus `.md`. `''` for an empty linkpath (`[[#Heading]]`, the note itself).
 *
 * @example
 * linkKey('Projects/Plan', '.md') // 'plan.md'
 * linkKey('My.Note', '.md') // 'my.note' (finds `My.Note` first, then `My.Note.md`)
 * linkKey('img/Photo.PNG', '.md') // 'photo.png'
 */
export function linkKey(linkpath: string, ending: NoteEnding): string {
  if (linkpath === '') return '';
  const folded = foldName(linkpath);
  const name = folded.slice(folded.lastIndexOf('/') + 1);
  return name.includes('.') ? name : `${name}${ending}`;
}

/**
 * The keys of the links that may resolve to a file, given its folded file name: the name itself
 * (`[[Note]]`, `[[Note.md]]`, `[[Photo.png]]` are all filed under it), plus the name without `.md`
 * when that still holds a `.` (`[[My.Note]]` is filed under `my.note` and reaches `My.Note.md`).
 *
 * @example
 * keysForFile('my.note.md', '.md') // ['my.note.md', 'my.note']
 * keysForFile('note.md', '.md') // ['note.md']
 */
export function keysForFile(fileLower: string, ending: NoteEnding): string[] {
  if (!fileLower.endsWith(ending)) return [fileLower];
  const stem = fileLower.slice(0, -ending.length);
  return stem.includes('.') ? [fileLower, stem] : [fileLower];
}

/**
 * The folded file names a link filed under `key` may reach: the key, and the key plus `.md`.
 *
 * @example
 * fileNamesForKey('my.note', '.md') // ['my.note', 'my.note.md']
 */
export function fileNamesForKey(key: string, ending: NoteEnding): string[] {
  return key === '' ? [] : [key, `${key}${ending}`];
}
