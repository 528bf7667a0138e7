/**
 * The first sentence of a tool's description, for the bundle manifest's tool list (build-mcpb.mjs).
 * A sentence ends at `.`, `!` or `?` followed by a space and a capital letter (or the end), outside
 * quotes and brackets: "1. [ ] …" inside a quoted example, or "e.g. x", is not an end (issue 36.9:
 * list_tasks was cut after `("- [ ] …", "* [x] …", "1.`).
 *
 * @param {string} text
 * @returns {string}
 */
export function firstSentence(text) {
  const t = text.trim().replace(/\s+/g, ' ');
  const closers = { '(': ')', '[': ']', '{': '}' };
  /** @type {string[]} */
  const open = [];
  let quoted = false;
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    if (c === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (c in closers) open.push(closers[/** @type {'(' | '[' | '{'} */ (c)]);
    else if (c === open[open.length - 1]) open.pop();
    else if (open.length === 0 && (c === '.' || c === '!' || c === '?')) {
      const next = t.slice(i + 1, i + 3);
      if (next === '' || /^ [A-Z]/.test(next)) return t.slice(0, i + 1);
    }
  }
  return t;
}
