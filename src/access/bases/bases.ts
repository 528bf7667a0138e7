/**
 * @module
 * Obsidian Bases through the gate (SPEC 16): list_bases and query_base. The index finds the bases and
 * the candidate rows with hidden files left out (a hidden note is never a row, a count, a group key
 * or a backlink, and a link to one does not resolve); the pure evaluator in bases/ does the rest.
 * A `.base` file in a hidden folder does not exist for agents.
 */
import { type BaseDef, readBase } from '../../bases/base-file.js';
import { type BaseBlock, baseBlocks } from '../../bases/blocks.js';
import { loadMoment } from '../../bases/dates.js';
import { BasesSyntaxError } from '../../bases/syntax-error.js';
import { pickView, runView, type ViewAnswer, type ViewGroup } from '../../bases/view.js';
import { decodeCursor, encodeCursor } from '../../common/cursor.js';
import { NotedError } from '../../common/errors.js';
import { unobservedWork, type Work } from '../../common/work.js';
import {
  baseFilePaths,
  candidateFiles,
  indexHost,
  notesMentioningBase,
} from '../../index/table/base-rows.js';
import { normalizeFolderName } from '../../vault/names.js';
import type { AccessContext } from '../context.js';
import { resolveExisting } from '../resolve.js';
import type { Rules } from '../rules/rules.js';
import { visibleOption } from '../rules/scope.js';
import { baseFileName } from './base-files.js';

export interface BaseSummary {
  /** The `.base` file, or the note holding the block. */
  readonly name: string;
  /** The block's index among the note's base blocks (notes only). */
  readonly block?: number;
  readonly views: readonly { name: string; type: string }[];
  readonly error?: { message: string; line: number; column: number };
}

export interface BaseListing {
  readonly bases: readonly BaseSummary[];
  readonly total: number;
  readonly nextCursor?: string;
  readonly more: boolean;
}

const MAX_BASE_BYTES = 1024 * 1024;

/**
 * The visible bases: `.base` files and notes with ` ```base ` blocks, by name, paged. Each file read
 * is followed by a safe point: a vault where many notes hold the word "base" holds no other request
 * up while they are read, and a cancel stops it.
 */
export async function listBases(
  ctx: AccessContext,
  rules: Rules,
  query: { folder?: string; cursor?: string; limit?: number },
  work: Work = unobservedWork(),
): Promise<BaseListing> {
  ctx.index.refresh();
  const db = ctx.index.db;
  const folder = query.folder === undefined ? '' : normalizeFolderName(query.folder);
  const inFolder = (p: string): boolean =>
    folder === '' || p.toLowerCase().startsWith(`${folder.toLowerCase()}/`);
  const all: BaseSummary[] = [];
  for (const path of baseFilePaths(db, rules.visible)) {
    if (!inFolder(path) || rules.accessOf(path) === 'hidden') continue;
    const text = readText(ctx, rules, path);
    if (text !== null) all.push(summary(path, undefined, text, 0));
    await work.checkpoint();
  }
  for (const path of notesMentioningBase(db)) {
    if (!inFolder(path) || rules.accessOf(path) === 'hidden') continue;
    const text = readText(ctx, rules, path);
    if (text !== null) {
      for (const block of baseBlocks(text))
        all.push(summary(path, block.index, block.source, block.firstLine - 1));
    }
    await work.checkpoint();
  }
  all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : (a.block ?? 0) - (b.block ?? 0)));
  const offset = query.cursor === undefined ? 0 : decodeCursor('bases', query.cursor, isOffset).o;
  const limit = query.limit ?? 100;
  const page = all.slice(offset, offset + limit);
  const more = offset + limit < all.length;
  return {
    bases: page,
    total: all.length,
    more,
    ...(more ? { nextCursor: encodeCursor('bases', { o: offset + limit }) } : {}),
  };
}

function summary(name: string, block: number | undefined, source: string, lineOffset: number): BaseSummary {
  const at = block === undefined ? {} : { block };
  try {
    const base = readBase(source, lineOffset);
    const views = base.views.length > 0 ? base.views : [{ name: 'Table', type: 'table' }];
    return { name, ...at, views: views.map((v) => ({ name: v.name, type: v.type })) };
  } catch (err) {
    if (!(err instanceof BasesSyntaxError)) throw err;
    return { name, ...at, views: [], error: { message: err.message, line: err.line, column: err.column } };
  }
}

function readText(ctx: AccessContext, rules: Rules, path: string): string | null {
  const file = ctx.vault.readFile(path, rules.sight, (stat) => {
    if (stat.size > MAX_BASE_BYTES) throw new NotedError('too_large', `"${path}" is larger than 1 MB.`);
  });
  return file === null ? null : file.bytes.toString('utf8');
}

function isOffset(data: unknown): data is { o: number } {
  return typeof (data as { o?: unknown } | null)?.o === 'number' && (data as { o: number }).o >= 0;
}

export interface BaseQuery {
  readonly base: string;
  readonly block?: number;
  readonly view?: string;
  readonly this?: string;
  readonly cursor?: string;
  readonly limit?: number;
}

export interface BaseAnswer extends Omit<ViewAnswer, 'groups'> {
  readonly base: string;
  readonly block?: number;
  readonly this: string | null;
  readonly groups: readonly ViewGroup[];
  readonly nextCursor?: string;
  readonly more: boolean;
}

/** The base an agent named: its definition, its name, and what `this` is by default. */
function loadBase(
  ctx: AccessContext,
  rules: Rules,
  input: string,
  block: number | undefined,
): {
  base: BaseDef;
  name: string;
  block?: number;
} {
  // Security: the name is made canonical (and confined) before the policy judges it.
  const trimmed = baseFileName(input);
  if (trimmed !== null) {
    // Security: a hidden .base file answers exactly like a missing one.
    const text = rules.accessOf(trimmed) === 'hidden' ? null : readText(ctx, rules, trimmed);
    if (text === null) {
      throw new NotedError(
        'not_found',
        `No base named "${trimmed}" exists. Use list_bases to see the bases.`,
      );
    }
    return { base: parsed(text, 0, trimmed), name: trimmed };
  }
  const name = resolveExisting(ctx, rules, input);
  const stored = ctx.vault.read(name, rules.sight);
  const blocks: BaseBlock[] = stored === null ? [] : baseBlocks(stored.text);
  const index = block ?? 0;
  const found = blocks[index];
  if (found === undefined) {
    throw new NotedError(
      'not_found',
      blocks.length === 0
        ? `The note "${name}" holds no \`\`\`base block. Use list_bases to see the bases.`
        : `The note "${name}" holds ${blocks.length} base block(s); block is 0 to ${blocks.length - 1}.`,
    );
  }
  return { base: parsed(found.source, found.firstLine - 1, name), name, block: index };
}

function parsed(source: string, lineOffset: number, name: string): BaseDef {
  try {
    return readBase(source, lineOffset);
  } catch (err) {
    if (!(err instanceof BasesSyntaxError)) throw err;
    throw new NotedError(
      'validation_error',
      `The base "${name}" does not parse at line ${err.line}, column ${err.column}: ${err.message} Fix it with update_note.`,
      { line: err.line, column: err.column },
    );
  }
}

/** One view of a base, evaluated over the visible files, a page of rows at a time (SPEC 16.2). */
export async function queryBase(
  ctx: AccessContext,
  rules: Rules,
  query: BaseQuery,
  work: Work,
): Promise<BaseAnswer> {
  ctx.index.refresh();
  const db = ctx.index.db;
  const { base, name, block } = loadBase(ctx, rules, query.base, query.block);
  const view = pickView(base, query.view);
  if (view === null) {
    throw new NotedError(
      'validation_error',
      `The base "${name}" has no view "${query.view}"; its views are ${base.views.map((v) => `"${v.name}"`).join(', ')}.`,
    );
  }
  const thisPath = query.this === undefined ? name : resolveExisting(ctx, rules, query.this);
  const visible = rules.visible;
  const candidates = candidateFiles(db, [base.filters, view.filters], visibleOption(rules));
  const host = indexHost(db, visible, () => ctx.now().getTime(), await loadMoment(), candidates);
  const answer = await runView(base, view, candidates, {
    host,
    thisPath,
    checkpoint: () => work.checkpoint(),
  });
  const offset = query.cursor === undefined ? 0 : decodeCursor('base-rows', query.cursor, isOffset).o;
  const limit = query.limit ?? 100;
  const groups: ViewGroup[] = [];
  let seen = 0;
  for (const g of answer.groups) {
    const start = Math.max(offset - seen, 0);
    const end = Math.min(offset + limit - seen, g.rows.length);
    if (start < end) groups.push({ ...g, rows: g.rows.slice(start, end) });
    seen += g.rows.length;
  }
  const more = offset + limit < answer.total;
  return {
    base: name,
    ...(block === undefined ? {} : { block }),
    view: answer.view,
    type: answer.type,
    this: thisPath,
    columns: answer.columns,
    groups,
    total: answer.total,
    more,
    ...(more ? { nextCursor: encodeCursor('base-rows', { o: offset + limit }) } : {}),
  };
}
