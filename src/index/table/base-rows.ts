/**
 * @module
 * What the index answers for Bases (SPEC 16.4): the `.base` files and the notes that may hold a
 * ` ```base ` block, the candidate files of a view (the top-level conditions it can answer in SQL:
 * `file.hasTag`, `file.inFolder`, `file.ext`, `file.name`, a property equal to a literal), and each
 * file's facts (properties, tags, links), read only when an expression asks. Every candidate is
 * still evaluated by the Bases interpreter, so narrowing never changes an answer, only its cost.
 * Hidden files are left out here: the policy's `visible` predicate and the notes' `visible` column.
 */
import type { Expr } from '../../bases/ast.js';
import type { FilterNode } from '../../bases/base-file.js';
import type { MomentFn } from '../../bases/dates.js';
import type { BasesHost, FileFacts, FileLink } from '../../bases/host.js';
import { type Db, reusedStatement } from '../db/database.js';
import { escapeLike } from '../db/like.js';
import { backlinks as backlinksOf, resolveLinkTarget, resolveLinkTargets } from '../queries/links.js';
import { fileCtime } from '../store/file-facts.js';
import { hiddenNotesOut, type VisibilityOption, type Visible, visibleRows } from '../store/visibility.js';

/** Paths of the visible `.base` files, by path. */
export function baseFilePaths(db: Db, visible: Visible | undefined): string[] {
  return db
    .prepare<[], string>(`SELECT path FROM attachments WHERE path_lower LIKE '%.base' ORDER BY path`)
    .pluck()
    .all()
    .filter((p) => visible === undefined || visible(p));
}

/**
 * Visible notes whose text holds the word `base` (a ` ```base ` fence's info string is indexed as a
 * word of the body): the only notes that can hold a base block.
 */
export function notesMentioningBase(db: Db): string[] {
  return db
    .prepare<[], string>(
      `SELECT n.path FROM notes_fts f JOIN notes n ON n.id = f.rowid
       WHERE notes_fts MATCH 'body:base' AND n.visible = 1 ORDER BY n.path`,
    )
    .pluck()
    .all();
}

/** The conditions of a filter tree that every passing row must meet (its top-level `and`). */
function conjuncts(filter: FilterNode | null): Expr[] {
  if (filter === null) return [];
  if (filter.kind === 'expr') return [filter.expr];
  if (filter.kind === 'and') return filter.items.flatMap(conjuncts);
  return [];
}

interface Cond {
  readonly sql: string;
  readonly params: readonly unknown[];
}

interface Narrowing {
  /** Conditions on notes (alias `n`); null when no note can pass (`file.ext == "pdf"`). */
  notes: Cond[] | null;
  /** Conditions on attachments (alias `a`); null when only notes can pass (a tag, a property). */
  attachments: Cond[] | null;
}

const isFileMember = (e: Expr, field: string): boolean =>
  e.kind === 'member' && e.name === field && e.object.kind === 'name' && e.object.name === 'file';

const stringArgs = (args: readonly Expr[]): string[] | null =>
  args.every((a) => a.kind === 'string') ? args.map((a) => (a as { value: string }).value) : null;

/** The note property a bare name or `note.x` reads, or null. */
function propertyKey(e: Expr): string | null {
  if (e.kind === 'name') return ['file', 'this', 'note', 'formula'].includes(e.name) ? null : e.name;
  if (e.kind === 'member' && e.object.kind === 'name' && e.object.name === 'note') return e.name;
  return null;
}

/** Adds what one condition tells SQL; conditions it does not understand add nothing. */
/** `flagged`: the condition on the `visible` flag of note_tag_prefixes rows (alias `p`), visibleRows'. */
function narrow(e: Expr, n: Narrowing, flagged: string): void {
  const onPath = (sql: string, params: unknown[]): void => {
    n.notes?.push({ sql: sql.replaceAll('PATH', 'n.path'), params });
    n.attachments?.push({ sql: sql.replaceAll('PATH', 'a.path'), params });
  };
  if (e.kind === 'call' && e.callee.kind === 'member') {
    const obj = e.callee.object;
    if (obj.kind !== 'name' || obj.name !== 'file') return;
    const args = stringArgs(e.args);
    if (args === null || args.length === 0) return;
    if (e.callee.name === 'hasTag') {
      const tags = args.map((t) => t.replace(/^#/, '').toLowerCase());
      n.notes?.push({
        sql: `n.id IN (SELECT note_id FROM note_tag_prefixes p WHERE ${flagged} AND p.tag_lower IN (${tags.map(() => '?').join(',')}))`,
        params: tags,
      });
      n.attachments = null;
    } else if (e.callee.name === 'inFolder' && args.length === 1) {
      const folder = (args[0] as string).replace(/^\/+|\/+$/g, '');
      if (folder !== '') onPath(`PATH LIKE ? ESCAPE '\\'`, [`${escapeLike(folder)}/%`]);
    }
    return;
  }
  if (e.kind !== 'binary' || e.op !== '==' || e.right.kind !== 'string') return;
  const value = e.right.value;
  if (isFileMember(e.left, 'ext')) {
    if (value === 'md') n.attachments = null;
    else {
      n.notes = null;
      n.attachments?.push({ sql: 'a.path_lower LIKE ?', params: [`%.${escapeLike(value.toLowerCase())}`] });
    }
    return;
  }
  if (isFileMember(e.left, 'name')) {
    onPath(`(PATH = ? OR PATH LIKE ? ESCAPE '\\')`, [value, `%/${escapeLike(value)}`]);
    return;
  }
  const key = propertyKey(e.left);
  if (key !== null && value !== '') {
    n.notes?.push({
      sql: 'n.id IN (SELECT note_id FROM note_props WHERE key_lower = ?)',
      params: [key.toLowerCase()],
    });
    n.attachments = null;
  }
}

function whereOf(conds: readonly Cond[], first: string[]): { sql: string; params: unknown[] } {
  const all = [...first, ...conds.map((c) => c.sql)];
  return {
    sql: all.length === 0 ? '' : ` WHERE ${all.join(' AND ')}`,
    params: conds.flatMap((c) => c.params),
  };
}

type NoteRowFacts = {
  id: number;
  path: string;
  size: number;
  mtime_ms: number;
  ctime_ms: number;
  birthtime_ms: number;
};

/**
 * The files that can pass `filters` (the base's and the view's, each ANDed), notes first, then
 * attachments; hidden ones never.
 */
export function candidateFiles(
  db: Db,
  filters: readonly (FilterNode | null)[],
  options: VisibilityOption,
): FileFacts[] {
  const { visible } = options;
  const n: Narrowing = { notes: [], attachments: [] };
  const flagged = visibleRows(db, options, 'p');
  for (const f of filters) for (const c of conjuncts(f)) narrow(c, n, flagged);
  const out: FileFacts[] = [];
  if (n.notes !== null) {
    const facts = new NoteFacts(db, visible);
    // The flag leaves hidden notes out in SQL only while the index follows these rules; the rules
    // judge every note all the same (another process may have brought the index in line with others).
    const hidden = hiddenNotesOut(db, options);
    const w = whereOf(n.notes, hidden === null ? [] : [hidden]);
    const rows = db
      .prepare<unknown[], NoteRowFacts>(
        `SELECT n.id, n.path, n.size, n.mtime_ms, n.ctime_ms, n.birthtime_ms FROM notes n${w.sql}`,
      )
      .all(...w.params);
    for (const r of rows) if (visible === undefined || visible(r.path)) out.push(facts.note(r));
  }
  if (n.attachments !== null) {
    const w = whereOf(n.attachments, []);
    const rows = db
      .prepare<unknown[], { path: string; size: number; mtime_ms: number }>(
        `SELECT a.path, a.size, a.mtime_ms FROM attachments a${w.sql}`,
      )
      .all(...w.params);
    for (const r of rows) if (visible === undefined || visible(r.path)) out.push(attachmentFacts(r));
  }
  return out;
}

function attachmentFacts(r: { path: string; size: number; mtime_ms: number }): FileFacts {
  return {
    path: r.path,
    size: r.size,
    mtimeMs: r.mtime_ms,
    ctimeMs: r.mtime_ms,
    properties: () => ({}),
    tags: () => [],
    links: () => [],
  };
}

/** Facts of notes, each list read on first use with one prepared statement. */
class NoteFacts {
  private readonly props;
  private readonly tags;
  private readonly links;
  constructor(
    private readonly db: Db,
    private readonly visible: Visible | undefined,
  ) {
    this.props = reusedStatement<[number], { key: string; value_json: string }>(
      db,
      'SELECT key, value_json FROM note_props WHERE note_id = ? ORDER BY ord',
    );
    this.tags = reusedStatement<[number], { tag: string }>(db, 'SELECT tag FROM note_tags WHERE note_id = ?');
    this.links = reusedStatement<[number], { linkpath: string; alias: string | null; embed: number }>(
      db,
      'SELECT linkpath, alias, embed FROM note_links WHERE note_id = ? ORDER BY ord',
    );
  }

  note(r: NoteRowFacts): FileFacts {
    let props: Record<string, unknown> | undefined;
    let tags: string[] | undefined;
    let links: FileLink[] | undefined;
    return {
      path: r.path,
      size: r.size,
      mtimeMs: r.mtime_ms,
      ctimeMs: fileCtime(r.birthtime_ms, r.ctime_ms, r.mtime_ms),
      properties: () => {
        props ??= Object.fromEntries(
          this.props.all(r.id).map((p) => [p.key, JSON.parse(p.value_json) as unknown]),
        );
        return props;
      },
      tags: () => {
        tags ??= this.tags.all(r.id).map((t) => t.tag);
        return tags;
      },
      links: () => {
        if (links === undefined) {
          const rows = this.links.all(r.id);
          const resolved = resolveLinkTargets(
            this.db,
            rows.map((l) => l.linkpath),
            r.path,
            this.visible === undefined ? {} : { visible: this.visible },
          );
          links = rows.map((l) => ({
            target: l.linkpath,
            display: l.alias,
            resolved: resolved.get(l.linkpath) ?? null,
            embed: l.embed === 1,
          }));
        }
        return links;
      },
    };
  }
}

/**
 * One visible file's facts by exact path (a note or an attachment), or null. The rules judge it, not
 * the index's flag, which says what the rules the index last followed say.
 */
function fileFacts(db: Db, path: string, visible: Visible | undefined): FileFacts | null {
  if (visible !== undefined && !visible(path)) return null;
  const note = reusedStatement<[string], NoteRowFacts>(
    db,
    'SELECT id, path, size, mtime_ms, ctime_ms, birthtime_ms FROM notes WHERE path = ?',
  ).get(path);
  if (note !== undefined) return new NoteFacts(db, visible).note(note);
  const a = reusedStatement<[string], { path: string; size: number; mtime_ms: number }>(
    db,
    'SELECT path, size, mtime_ms FROM attachments WHERE path = ?',
  ).get(path);
  return a === undefined ? null : attachmentFacts(a);
}

/**
 * The vault as the Bases evaluator asks for it, hidden files absent: facts of the files already
 * loaded (the candidates) first, others looked up once; link resolutions and backlinks memoized for
 * the call.
 */
export function indexHost(
  db: Db,
  visible: Visible | undefined,
  now: () => number,
  moment: MomentFn,
  known: readonly FileFacts[] = [],
): BasesHost {
  const files = new Map<string, FileFacts | null>(known.map((f) => [f.path, f]));
  const resolved = new Map<string, string | null>();
  const option = visible === undefined ? {} : { visible };
  return {
    file: (path) => {
      let f = files.get(path);
      if (f === undefined) {
        f = fileFacts(db, path, visible);
        files.set(path, f);
      }
      return f;
    },
    resolve: (text, from) => {
      const key = `${from}\u0000${text}`;
      let r = resolved.get(key);
      if (r === undefined) {
        r = resolveLinkTarget(db, text, from, option);
        resolved.set(key, r);
      }
      return r;
    },
    backlinks: (path) => backlinkPaths(db, path, visible),
    now,
    moment,
  };
}

/** The visible notes linking to `path`. */
function backlinkPaths(db: Db, path: string, visible: Visible | undefined): string[] {
  return (backlinksOf(db, path, visible === undefined ? {} : { visible }) ?? []).map((b) => b.name);
}
