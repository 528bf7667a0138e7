/**
 * @module
 * edit_note `add_block_id` (SPEC 17.4): gives the block holding a line a `^id` where Obsidian reads it
 * (LNK-42) — at the end of a paragraph's last line; at the end of a list item's own text for a line of
 * that item; on a line of its own after a table, quote, callout or code block, blank lines around it.
 * A heading has no block id (a link names it by its text), nor do frontmatter, blank lines and
 * thematic breaks. A block that has an id already keeps it: the edit is refused and says which.
 */
import { randomInt } from 'node:crypto';
import { NotedError } from '../common/errors.js';
import { type Block, blocksOf, listItemAt } from './blocks.js';
import { splitFrontmatter } from './frontmatter/frontmatter.js';
import { trailingBlockId } from './inline-tokens.js';
import { type Line, splitLines } from './lines.js';
import { scanBody } from './scan.js';

/** LNK-42: Latin letters, digits and dashes. */
const BLOCK_ID = /^[A-Za-z0-9-]+$/;
const MAX_ID_CHARS = 100;
const STANDALONE_ID = /^\s*\^([A-Za-z0-9-]+)\s*$/;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

export interface BlockIdAdded {
  readonly text: string;
  /** The id, without `^`. */
  readonly id: string;
  /** The 1-based line (frontmatter counted) the `^id` is written on. */
  readonly line: number;
}

/**
 * The note with the block holding `line` (1-based, frontmatter counted) given `^id`; a fresh
 * six-character id, used by no block of the note, when `wanted` is undefined.
 *
 * @example
 * addBlockId('Intro.\n\nA point\nmade here.\n', 4, 'point').text // 'Intro.\n\nA point\nmade here. ^point\n'
 * @throws NotedError `validation_error` for a line no block holds, a bad or taken id, or a block with an id.
 */
export function addBlockId(
  text: string,
  line: number,
  wanted?: string,
  random: (n: number) => number = randomInt,
): BlockIdAdded {
  const { raw, body } = splitFrontmatter(text);
  const offset = raw === '' ? 0 : raw.split('\n').length - 1;
  const taken = new Map(
    scanBody(body, { lineOffset: offset }).blockIds.map((b) => [b.id.toLowerCase(), b.line]),
  );
  const wantedId = wanted?.replace(/^\^/, '');
  if (wantedId !== undefined) checkWanted(wantedId, taken);
  const lines = splitLines(body);
  const total = offset + (body.endsWith('\n') ? lines.length - 1 : lines.length);
  if (!Number.isInteger(line) || line < 1 || line > total) {
    throw new NotedError('validation_error', `line ${line} is not in the note, which has ${total} lines.`);
  }
  if (line <= offset) {
    throw new NotedError(
      'validation_error',
      `line ${line} is in the frontmatter (lines 1–${offset}), which holds no blocks. Give a line of the body.`,
    );
  }
  const at = line - 1 - offset;
  const here = lines[at] as Line;
  // A blank line inside a loose list or between blocks belongs to none, whatever the list holds around it.
  if (/^\s*$/.test(here.text) && !here.inCode) throw noBlock(line, 'is blank');
  const block = blocksOf(lines).find((b) => b.from <= at && at <= b.to);
  if (block === undefined) throw noBlock(line, 'is blank');
  if (block.kind === 'heading') {
    throw noBlock(
      line,
      'is a heading: a link names it by its text, [[note#Heading]] (get_note_outline gives its anchor)',
    );
  }
  if (block.kind === 'rule') throw noBlock(line, 'is a thematic break');
  if (block.kind === 'code' && block.closed !== true) {
    throw noBlock(line, 'is in a code block that is never closed (an id after it would be code too)');
  }
  const id = wantedId ?? freshId(taken, random);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const target = placeOf(lines, block, at);
  if (target.inline !== null) {
    const end = lines[target.inline] as Line;
    const existing = trailingBlockId(end.text, 0);
    if (existing !== null) throw hasId(line, existing, end.index + 1 + offset);
    refuseStandingId(lines, block, line, offset);
    const insertAt = raw.length + end.end;
    const spaced = /[ \t]$/.test(end.text) ? '' : ' ';
    return {
      text: `${text.slice(0, insertAt)}${spaced}^${id}${text.slice(insertAt)}`,
      id,
      line: end.index + 1 + offset,
    };
  }
  // A structured block: `^id` alone on the line after a blank one.
  refuseStandingId(lines, block, line, offset);
  const last = lines[block.to] as Line;
  const insertAt = raw.length + last.next;
  const before = text.slice(0, insertAt);
  const lead = before.endsWith('\n') ? '' : eol;
  const after = text.slice(insertAt);
  const trail = after === '' ? eol : /^[ \t]*\r?\n/.test(after) ? eol : `${eol}${eol}`;
  return { text: `${before}${lead}${eol}^${id}${trail}${after}`, id, line: last.index + 3 + offset };
}

/**
 * An id alone on its line after the block (blank lines between) names it already (LNK-42): refused.
 * A list item is named by an id on its own line, so a list's standing id does not stop one there.
 */
function refuseStandingId(lines: readonly Line[], block: Block, line: number, offset: number): void {
  if (block.kind === 'list') return;
  let next = block.to + 1;
  while (next < lines.length && /^\s*$/.test((lines[next] as Line).text)) next++;
  const following = lines[next];
  const standing = following === undefined ? null : STANDALONE_ID.exec(following.text);
  if (standing !== null && following !== undefined) {
    throw hasId(line, standing[1] as string, following.index + 1 + offset);
  }
}

/** Where the id goes: the index of the line it ends (paragraphs, list items), or null for a line of its own. */
function placeOf(lines: readonly Line[], block: Block, at: number): { inline: number | null } {
  switch (block.kind) {
    case 'paragraph':
      return { inline: block.to };
    case 'list':
      return { inline: listItemAt(lines, block, at).ownTo };
    default:
      return { inline: null };
  }
}

/** `id` is the id to write, its one leading `^` already taken off: a second one is refused. */
function checkWanted(id: string, taken: ReadonlyMap<string, number>): void {
  if (!BLOCK_ID.test(id) || id.length > MAX_ID_CHARS) {
    throw new NotedError(
      'validation_error',
      `block_id ${JSON.stringify(id)} is not a block id: Obsidian's may hold only Latin letters, digits and dashes (no spaces or _), at most ${MAX_ID_CHARS} characters, e.g. "summary-2026". Leave block_id out for a fresh one.`,
    );
  }
  const line = taken.get(id.toLowerCase());
  if (line !== undefined) {
    throw new NotedError(
      'validation_error',
      `The note already has a block ^${id} (line ${line}); a link [[note#^${id}]] would find that one (ids are compared ignoring case). Choose another block_id, or leave it out for a fresh one.`,
      { line },
    );
  }
}

function freshId(taken: ReadonlyMap<string, number>, random: (n: number) => number): string {
  for (;;) {
    let id = '';
    for (let i = 0; i < 6; i++) id += ALPHABET[random(ALPHABET.length)];
    if (!taken.has(id)) return id;
  }
}

function noBlock(line: number, why: string): NotedError {
  return new NotedError(
    'validation_error',
    `line ${line} ${why}, so no block id was added. Give a line of a paragraph, list item, table, quote or code block.`,
  );
}

function hasId(line: number, id: string, idLine: number): NotedError {
  return new NotedError(
    'validation_error',
    `The block holding line ${line} already has the id ^${id} (line ${idLine}), so nothing was written: link to it as [[note#^${id}]].`,
    { blockId: id, line: idLine },
  );
}
