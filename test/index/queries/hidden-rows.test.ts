/**
 * Issue 35 finding 5: the reading tools' lookups of links, tags, tasks and aliases read no row of a
 * hidden note, as search reads no full-text row of one, so their time cannot tell what hidden notes
 * hold. Checked without timing: every statement a query runs is recorded with its arguments and
 * planned again (EXPLAIN QUERY PLAN), and each lookup of those tables must be a range whose first
 * column is the rows' `visible` flag, a range that holds none of the hidden notes' rows; and the
 * flags must follow the notes' as the rules change. An index of the layout before is rebuilt.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { parseExpression } from '../../../src/bases/parser.js';
import { type Db, openIndexDatabase } from '../../../src/index/db/database.js';
import { APPLICATION_ID } from '../../../src/index/db/schema.js';
import { exportCount, exportPaths } from '../../../src/index/queries/export.js';
import { backlinks, linkingNoteIds, unresolvedLinkerIds } from '../../../src/index/queries/links.js';
import { sortedTagCounts, taggedNotesPage } from '../../../src/index/queries/tags.js';
import { taskPage } from '../../../src/index/queries/tasks.js';
import { EVERYTHING_VISIBLE, type IndexVisibility } from '../../../src/index/store/visibility.js';
import { candidateFiles } from '../../../src/index/table/base-rows.js';
import { queryNotes } from '../../../src/index/table/query.js';
import { type IndexedVault, indexedVault } from '../indexed-vault.js';

const HIDE_SECRET: IndexVisibility = { key: 'hide-secret', visible: (p) => !p.startsWith('secret/') };
const OPTIONS = { visible: HIDE_SECRET.visible, visibilityKey: HIDE_SECRET.key };

/** The candidate files of a base whose filter is `source` (query_base, query_notes `where`), by path. */
function baseCandidates(db: Db, source: string, options: typeof OPTIONS): string[] {
  const filter = { kind: 'expr', expr: parseExpression(source), source } as const;
  return candidateFiles(db, [filter], options).map((f) => f.path);
}

/** The lookup indexes of the flagged tables (schema.ts): each must be entered by `visible`. */
const FLAGGED_INDEXES = ['note_links_key', 'note_tag_prefixes_tag', 'note_tasks_due', 'note_aliases_alias'];
const FLAGGED_TABLES = ['note_links', 'note_tag_prefixes', 'note_tasks', 'note_aliases'];

function files(): Record<string, string> {
  const out: Record<string, string> = { 'pub/target.md': '# Target\n', 'pub/Plain.md': '# Plain\n' };
  for (let i = 0; i < 5; i++) {
    out[`pub/v${i}.md`] =
      `# V${i}\n\n#shown [[v${(i + 1) % 5}]] [[Plain]]\n\n- [ ] shown task ${i} 📅 2026-03-0${i + 1}\n`;
  }
  for (let i = 0; i < 40; i++) {
    out[`secret/h${i}.md`] =
      `---\naliases: [zqalias]\n---\n# H${i}\n\n#zqtag [[target]] [[zqnowhere]] [[zqalias]]\n\n- [ ] zqtask ${i}\n- [ ] zqtask dated 📅 2026-02-01\n`;
  }
  return out;
}

interface Ran {
  readonly sql: string;
  readonly args: unknown[];
}

/**
 * Records every statement prepared on `db` from now on, with the arguments each run was given; `plans`
 * plans them again with the unrecorded `prepare`.
 */
function recordStatements(db: Db): { ran: Ran[]; plans: () => { sql: string; detail: string }[] } {
  const ran: Ran[] = [];
  const prepare = db.prepare.bind(db);
  const wrapped = (sql: string) => {
    const statement = prepare(sql);
    for (const method of ['all', 'get', 'iterate', 'run'] as const) {
      const original = (statement[method] as (...a: unknown[]) => unknown).bind(statement);
      (statement as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
        ran.push({ sql, args });
        return original(...args);
      };
    }
    return statement;
  };
  (db as unknown as { prepare: typeof wrapped }).prepare = wrapped;
  // The plan lines of the recorded statements that read the flagged tables.
  const plans = () =>
    ran
      .filter(({ sql }) => FLAGGED_TABLES.some((t) => sql.includes(t)))
      .flatMap(({ sql, args }) =>
        (prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map(({ detail }) => ({
          sql: sql.replace(/\s+/g, ' '),
          detail,
        })),
      );
  return { ran, plans };
}

/**
 * What reads a hidden note's row: a lookup index of a flagged table entered otherwise than by its flag,
 * or any full scan but of the visible notes' own index (a JSON list's rows are the query's arguments).
 */
function readsHiddenRows(detail: string): boolean {
  const index = /USING (?:COVERING )?INDEX (\w+) \(([^)]*)\)/.exec(detail);
  if (index !== null && FLAGGED_INDEXES.includes(index[1] as string))
    return !index[2]?.startsWith('visible=?');
  if (/^SCAN /.test(detail)) return !/^SCAN json_each|USING INDEX notes_visible_mtime/.test(detail);
  return false;
}

describe('hidden notes have no row in the ranges the reading tools read', () => {
  let vault: IndexedVault | undefined;
  afterEach(() => vault?.close());

  const tools: [string, (db: Db) => unknown][] = [
    ['get_backlinks', (db) => backlinks(db, 'pub/target.md', OPTIONS)],
    ['list_by_tag', (db) => taggedNotesPage(db, 'zqtag', { limit: 10, ...OPTIONS })],
    ['list_by_tag (a common tag)', (db) => taggedNotesPage(db, 'shown', { limit: 1, ...OPTIONS })],
    ['list_tasks {text}', (db) => taskPage(db, { text: 'zqtask', ...OPTIONS }, '2026-01-01')],
    ['list_tasks {status: all}', (db) => taskPage(db, { status: 'all', ...OPTIONS }, '2026-01-01')],
    ['list_tasks {tag}', (db) => taskPage(db, { tag: 'zqtag', ...OPTIONS }, '2026-01-01')],
    [
      'export_notes {tag}',
      (db) => [
        exportPaths(db, { folderLower: '', tagLower: 'zqtag', ...OPTIONS }, null, 10),
        exportCount(db, { folderLower: '', tagLower: 'zqtag', ...OPTIONS }),
      ],
    ],
    ['list_tags', (db) => sortedTagCounts(db, OPTIONS)],
    ['has_link (a note)', (db) => [...(linkingNoteIds(db, 'pub/target.md', OPTIONS) ?? [])]],
    ['has_link (nothing)', (db) => [...unresolvedLinkerIds(db, 'zqnowhere', OPTIONS)]],
    [
      'query_notes has_tag',
      (db) =>
        queryNotes(db, { filters: [{ op: 'has_tag', value: 'zqtag' }] }, { today: '2026-01-01', ...OPTIONS }),
    ],
    ['query_base file.hasTag', (db) => baseCandidates(db, 'file.hasTag("zqtag")', OPTIONS)],
  ];

  it.each(tools)('%s: answers as if they were absent, and reads none of their rows', (_, run) => {
    vault = indexedVault(files(), HIDE_SECRET);
    const db = vault.db;
    const recorded = recordStatements(db);
    const answer = JSON.stringify(run(db));
    expect(answer).not.toMatch(/secret\/|zq/);
    const plans = recorded.plans();
    // The query did read a flagged table: the check below is not vacuous.
    expect(plans.length).toBeGreaterThan(0);
    expect(plans.filter((p) => readsHiddenRows(p.detail))).toEqual([]);
  });

  it('the visible range of each lookup index holds none of the hidden rows', () => {
    vault = indexedVault(files(), HIDE_SECRET);
    const db = vault.db;
    const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    expect(count("SELECT count(*) AS n FROM note_links WHERE key_lower = 'target.md'")).toBe(40);
    expect(count("SELECT count(*) AS n FROM note_links WHERE visible = 1 AND key_lower = 'target.md'")).toBe(
      0,
    );
    expect(
      count("SELECT count(*) AS n FROM note_tag_prefixes WHERE visible = 1 AND tag_lower = 'zqtag'"),
    ).toBe(0);
    expect(
      count("SELECT count(*) AS n FROM note_tasks WHERE visible = 1 AND text_fold LIKE '%zqtask%'"),
    ).toBe(0);
    expect(
      count("SELECT count(*) AS n FROM note_aliases WHERE visible = 1 AND alias_lower = 'zqalias'"),
    ).toBe(0);
  });

  it("keeps every row's flag equal to its note's as the rules change, and answers by the new rules", () => {
    vault = indexedVault(files(), HIDE_SECRET);
    const db = vault.db;
    const mismatched = () =>
      FLAGGED_TABLES.map(
        (table) =>
          (
            db
              .prepare(
                `SELECT count(*) AS n FROM ${table} r JOIN notes n ON n.id = r.note_id WHERE r.visible <> n.visible`,
              )
              .get() as { n: number }
          ).n,
      );
    const hiddenRows = () =>
      FLAGGED_TABLES.map(
        (table) =>
          (db.prepare(`SELECT count(*) AS n FROM ${table} WHERE visible = 0`).get() as { n: number }).n,
      );
    expect(mismatched()).toEqual([0, 0, 0, 0]);
    // 40 notes of three links, one tag, two tasks, one alias each.
    expect(hiddenRows()).toEqual([120, 40, 80, 40]);

    vault.useVisibility(EVERYTHING_VISIBLE);
    expect(mismatched()).toEqual([0, 0, 0, 0]);
    expect(hiddenRows()).toEqual([0, 0, 0, 0]);
    expect(backlinks(db, 'pub/target.md')).toHaveLength(40);
    expect(taggedNotesPage(db, 'zqtag', { limit: 100 }).notes).toHaveLength(40);

    vault.useVisibility(HIDE_SECRET);
    expect(mismatched()).toEqual([0, 0, 0, 0]);
    expect(hiddenRows()).toEqual([120, 40, 80, 40]);
    expect(backlinks(db, 'pub/target.md', OPTIONS)).toEqual([]);

    // A hidden note written again keeps its rows hidden.
    vault.write('secret/h0.md', '#zqtag [[target]]\n- [ ] zqtask again\n');
    expect(mismatched()).toEqual([0, 0, 0, 0]);
    expect(taskPage(db, { text: 'zqtask', ...OPTIONS }, '2026-01-01').tasks).toEqual([]);
  });

  it('answers by the predicate where the rows follow other rules', () => {
    vault = indexedVault(files(), EVERYTHING_VISIBLE);
    const db = vault.db;
    // The index follows "everything visible"; the caller hides secret/: the predicate judges every row.
    expect(backlinks(db, 'pub/target.md', OPTIONS)).toEqual([]);
    expect(sortedTagCounts(db, OPTIONS).map((t) => t.tag)).toEqual(['shown']);
    expect(taskPage(db, { text: 'zqtask', ...OPTIONS }, '2026-01-01').tasks).toEqual([]);
    // A base's candidates too: the notes' own flags say "visible" here, the rules say hidden.
    expect(baseCandidates(db, 'file.hasTag("zqtag")', OPTIONS)).toEqual([]);
    expect(baseCandidates(db, 'file.inFolder("secret")', OPTIONS)).toEqual([]);
    expect(backlinks(db, 'pub/target.md')).toHaveLength(40);
  });
});

it('an index made before the flags (schema 5) is rebuilt when opened, its rows then flagged', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'noted-schema5-'));
  try {
    const file = path.join(dir, 'index.sqlite');
    const old = new Database(file);
    old.exec(
      "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL); CREATE TABLE note_links(note_id INTEGER NOT NULL, ord INTEGER NOT NULL, key_lower TEXT NOT NULL, PRIMARY KEY(note_id, ord)) WITHOUT ROWID; INSERT INTO meta VALUES ('schema', 'five');",
    );
    old.pragma(`application_id = ${APPLICATION_ID}`);
    old.pragma('user_version = 5');
    old.close();
    const opened = openIndexDatabase(file);
    try {
      expect(opened.rebuiltBecause).toMatch(/index schema 5, this server uses 7/);
      const columns = (table: string) =>
        (opened.db.prepare(`SELECT name FROM pragma_table_info('${table}')`).all() as { name: string }[]).map(
          (c) => c.name,
        );
      for (const table of FLAGGED_TABLES) expect(columns(table)).toContain('visible');
    } finally {
      opened.db.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
