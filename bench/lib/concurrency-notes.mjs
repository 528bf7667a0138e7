/**
 * @module bench/lib/concurrency-notes
 * The notes of the concurrency run and the edits made to them, as plain text functions. Every write
 * (an agent's or the direct editor's) puts a token into the note that no other write uses, so every
 * version of a note is a different text: a version names exactly one write, and the checker can
 * rebuild each note's history from "based on version X, produced version Y" pairs.
 *
 * The format is fixed, so the edits can be applied here exactly as the server applies them
 * (SPEC 2.2, 2.6): the run compares the etag the server answers with the etag of the text computed
 * here from the version the write was based on.
 */
import { createHash } from 'node:crypto';

/** `sha256:` + hex SHA-256 of the UTF-8 bytes (SPEC 1.5). */
export function etagOf(text) {
  return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

/** The notes everyone writes: `shared/n0.md` … */
export function sharedNames(count) {
  return Array.from({ length: count }, (_, i) => `shared/n${i}.md`);
}

/** The notes agents create and delete (nobody edits them on disk): `scratch/s0.md` … */
export function scratchNames(count) {
  return Array.from({ length: count }, (_, i) => `scratch/s${i}.md`);
}

/**
 * A fixed-width token no other write uses: a 3-character writer prefix and a 6-digit sequence
 * (`a01000042` for server 0, worker 1; `ded000042` for the direct editor). One FTS5 token.
 */
export function token(prefix, seq) {
  return `${prefix}${String(seq).padStart(6, '0')}`;
}

/** The starting text of shared note `i` of `count`. */
export function initialText(i, count) {
  const next = (i + 1) % count;
  return [
    '---',
    `title: Shared note ${i}`,
    'rev: ini000000',
    `tags: [conc, shared/n${i}]`,
    '---',
    `# Shared note ${i}`,
    '',
    `Links to [[n${next}]] and [[missing-${i}]].`,
    '',
    '## Log',
    '',
    `- ini00000${i} start #topic/start [[n${next}]]`,
    '',
    '## Tasks',
    '',
    `- [ ] seed task for ${i} 📅 2026-01-0${(i % 9) + 1}`,
    '',
  ].join('\n');
}

const LOG_HEADING = '\n## Log\n';
const TASKS_HEADING = '\n## Tasks\n';
const REV_LINE = /^rev: (\S+)$/m;

/** True when `text` has the shape the edits below rely on (not a torn or foreign text). */
export function wellFormed(text) {
  const log = text.indexOf(LOG_HEADING);
  const tasks = text.indexOf(TASKS_HEADING);
  return (
    text.startsWith('---\n') &&
    REV_LINE.test(text) &&
    log !== -1 &&
    tasks > log &&
    text.indexOf(LOG_HEADING, log + 1) === -1 &&
    text.indexOf(TASKS_HEADING, tasks + 1) === -1
  );
}

/**
 * edit_note `append_to_section` on the `Log` section, as the server does it (markdown/edit.ts): the
 * section's trailing blank lines are dropped, then one blank line, the line, a line break, and one
 * blank line before the next heading (`## Tasks`).
 */
export function appendToLog(text, line) {
  const start = text.indexOf(LOG_HEADING) + LOG_HEADING.length;
  const end = text.indexOf(TASKS_HEADING) + 1; // the start of the `## Tasks` line
  const own = text.slice(start, end).replace(/\n+$/, '\n');
  const kept = own === '\n' ? '' : own;
  return `${text.slice(0, start)}${kept}\n${line}\n\n${text.slice(end)}`;
}

/** The `rev:` value in the frontmatter. */
export function revOf(text) {
  return REV_LINE.exec(text)?.[1] ?? null;
}

/** edit_note `replace` of the `rev: …` line (old_text found once: the line is unique). */
export function revEdit(text, rev) {
  const old = `rev: ${revOf(text)}`;
  return { oldText: old, newText: `rev: ${rev}`, text: text.replace(old, `rev: ${rev}`) };
}

/** update_note with `append: true` (SPEC 2.6). */
export function appendWhole(text, addition) {
  return text === '' ? addition : `${text}\n\n---\n\n${addition}`;
}

/**
 * A whole new text for update_note: the frontmatter with a new `rev` and an extra tag, the last few
 * log lines plus one, and the task list with the first open task ticked. Keeps notes short however
 * long the run.
 */
export function rewrite(text, index, tok, extraTag) {
  const i = Number(/# Shared note (\d+)/.exec(text)?.[1] ?? index);
  const logStart = text.indexOf(LOG_HEADING) + LOG_HEADING.length;
  const tasksStart = text.indexOf(TASKS_HEADING);
  const logLines = text
    .slice(logStart, tasksStart)
    .split('\n')
    .filter((l) => l.startsWith('- '));
  const taskLines = text
    .slice(tasksStart + TASKS_HEADING.length)
    .split('\n')
    .filter((l) => /^- \[[ x]\] /.test(l))
    .slice(-6);
  const open = taskLines.findIndex((l) => l.startsWith('- [ ] '));
  if (open !== -1) taskLines[open] = `- [x] ${(taskLines[open] ?? '').slice(6)}`;
  const body = [
    '---',
    `title: Shared note ${i}`,
    `rev: ${tok}`,
    `tags: [conc, shared/n${i}, ${extraTag}]`,
    '---',
    `# Shared note ${i}`,
    '',
    `Links to [[n${i === 0 ? 1 : 0}]] and [[missing-${i}]].`,
    '',
    '## Log',
    '',
    ...[...logLines.slice(-5), `- ${tok} rewrote the note`].flatMap((l) => [l, '']),
    '## Tasks',
    '',
    ...taskLines,
    `- [ ] ${tok} follow up 📅 2026-02-${String((Number(tok.slice(-2)) % 28) + 1).padStart(2, '0')}`,
    '',
  ];
  return body.join('\n');
}

/** A fresh whole text for a note whose current text has lost its shape (a torn read). */
export function freshText(index, count, tok) {
  return initialText(index, count).replace('rev: ini000000', `rev: ${tok}`);
}

/** One log line an agent adds: a link and a tag that vary, sometimes a task. */
export function agentLine(rand, tok, noteCount) {
  const target = Math.floor(rand() * noteCount);
  const topic = ['alpha', 'beta', 'gamma', 'delta'][Math.floor(rand() * 4)];
  if (rand() < 0.3) return `- [ ] ${tok} check [[n${target}]] #topic/${topic} 📅 2026-03-1${target % 10}`;
  return `- ${tok} agent wrote this, see [[n${target}]] #topic/${topic}`;
}

/** The text of a scratch note at creation. */
export function scratchText(name, tok) {
  return `# ${name}\n\ncreated ${tok} #scratch\n`;
}
