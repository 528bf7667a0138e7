/**
 * @module
 * Tag identity and nesting (OBSIDIAN.md TAG-20..22): tags compare case-insensitively, and a tag
 * query matches the tag itself and every tag nested below it on whole `/` segments.
 */

/**
 * The form tags are compared in: one leading `#` and one trailing `/` removed, NFC, lower-cased.
 *
 * @example
 * normalizeTag('#Inbox/To-Read/') // 'inbox/to-read'
 */
export function normalizeTag(tag: string): string {
  let t = tag.startsWith('#') ? tag.slice(1) : tag;
  if (t.endsWith('/')) t = t.slice(0, -1);
  return t.normalize('NFC').toLowerCase();
}

/**
 * TAG-21: true when `noteTag` is `query` or nested below it, case-insensitively and on whole
 * segments: `inbox` matches `inbox` and `inbox/to-read`, not `inboxes` nor `work/inbox`.
 *
 * @example
 * tagMatches('#Inbox/to-read', 'inbox') // true
 */
export function tagMatches(noteTag: string, query: string): boolean {
  const q = normalizeTag(query);
  if (q === '') return false;
  const t = normalizeTag(noteTag);
  return t === q || (t.length > q.length && t.startsWith(q) && t.charCodeAt(q.length) === 0x2f);
}

/**
 * TAG-22: the tag and each of its parents, outermost first, in the casing given (one leading `#`
 * and one trailing `/` removed; empty segments add no parent).
 *
 * @example
 * tagWithParents('a/b/c') // ['a', 'a/b', 'a/b/c']
 */
export function tagWithParents(tag: string): string[] {
  let t = tag.startsWith('#') ? tag.slice(1) : tag;
  if (t.endsWith('/')) t = t.slice(0, -1);
  if (t === '') return [];
  const out: string[] = [];
  for (let slash = t.indexOf('/'); slash !== -1; slash = t.indexOf('/', slash + 1)) {
    if (slash > 0 && t.charCodeAt(slash - 1) !== 0x2f) out.push(t.slice(0, slash));
  }
  out.push(t);
  return out;
}
