/**
 * @module bench/lib/concurrency-index
 * "The index equals a fresh rebuild", two ways:
 * - as users see it: the same questions (list_notes, list_tags, list_tasks, backlinks, outgoing links,
 *   searches, a query_notes table) asked of each live server and of a server that built a new index
 *   from the same files, answers compared exactly (scores to 1e-9);
 * - table by table: every row of every index table of the live index file against the rebuilt one,
 *   with note ids replaced by note paths, and the full-text index compared term by term and column by
 *   column (which notes match, and their BM25 scores).
 * The notes' ids for agents (SPEC 17.3) are each index's own: a rebuilt index makes new ones, and a
 * live one's keys carry the moves it saw. So answers compare ids by where they stand (labelled in
 * order of appearance), and the tables leave out the keys (`notes.uid`) and the ids' secret.
 */
import Database from 'better-sqlite3';

/** The tables whose rows belong to a note (`note_id`), compared with the note's path instead. */
const NOTE_TABLES = [
  'note_tags',
  'note_links',
  'note_tag_prefixes',
  'note_tasks',
  'note_aliases',
  'note_props',
];

const FTS_COLUMNS = ['title', 'tags', 'body'];
const BM25 = 'bm25(notes_fts, 3.0, 2.0, 1.0)';

function round(score) {
  return Number(score.toPrecision(10));
}

/** Every row of the index at `file`, as sorted JSON lines per table, and its full-text index. */
export function indexContent(file) {
  const db = new Database(file, { fileMustExist: true });
  try {
    const tables = {};
    const sorted = (rows) => rows.map((r) => JSON.stringify(r)).sort();
    // The change feed's state (its id, start, retention) is the index's history, not derived from the files.
    tables.meta = sorted(
      db
        .prepare("SELECT * FROM meta WHERE key NOT LIKE 'feed\\_%' ESCAPE '\\' AND key != 'note_id_secret'")
        .all(),
    );
    tables.notes = sorted(
      db
        .prepare('SELECT * FROM notes')
        .all()
        .map(({ id: _id, uid: _uid, ...rest }) => rest),
    );
    tables.attachments = sorted(db.prepare('SELECT * FROM attachments').all());
    for (const table of NOTE_TABLES) {
      tables[table] = sorted(
        db
          .prepare(`SELECT n.path AS note_path, t.* FROM ${table} t LEFT JOIN notes n ON n.id = t.note_id`)
          .all()
          .map(({ note_id: _id, ...rest }) => rest),
      );
    }
    db.exec('CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, notes_fts, row)');
    const terms = db
      .prepare('SELECT term FROM temp.vocab')
      .all()
      .map((r) => r.term);
    return { tables, terms };
  } finally {
    db.close();
  }
}

/** For each term and column: the notes that match and their scores, in one index. */
function ftsMatches(file, terms) {
  const db = new Database(file, { fileMustExist: true, readonly: true });
  try {
    const query = db.prepare(
      `SELECT coalesce(n.path, '#' || f.rowid) AS note, ${BM25} AS score FROM notes_fts f LEFT JOIN notes n ON n.id = f.rowid WHERE notes_fts MATCH ? ORDER BY note`,
    );
    const out = new Map();
    for (const term of terms) {
      for (const column of FTS_COLUMNS) {
        const rows = query.all(`{${column}} : "${term.replaceAll('"', '""')}"`);
        if (rows.length > 0) {
          out.set(`${column}:${term}`, rows.map((r) => `${r.note} ${round(r.score)}`).join(', '));
        }
      }
    }
    return out;
  } finally {
    db.close();
  }
}

/**
 * The differences between two index files (each a list of rows only one side has), or [] when they
 * hold the same.
 */
export function compareIndexFiles(liveFile, freshFile, options = { maxPerTable: 5 }) {
  const live = indexContent(liveFile);
  const fresh = indexContent(freshFile);
  const differences = [];
  for (const table of Object.keys(fresh.tables)) {
    const a = live.tables[table] ?? [];
    const b = fresh.tables[table];
    const diff = multisetDiff(a, b);
    if (diff.onlyA.length > 0 || diff.onlyB.length > 0) {
      differences.push({
        table,
        onlyLive: diff.onlyA.slice(0, options.maxPerTable),
        onlyFresh: diff.onlyB.slice(0, options.maxPerTable),
        count: diff.onlyA.length + diff.onlyB.length,
      });
    }
  }
  const terms = [...new Set([...live.terms, ...fresh.terms])].sort();
  const a = ftsMatches(liveFile, terms);
  const b = ftsMatches(freshFile, terms);
  const ftsDiff = [];
  for (const key of new Set([...a.keys(), ...b.keys()])) {
    if (a.get(key) !== b.get(key)) {
      ftsDiff.push(`${key}: live [${a.get(key) ?? ''}] fresh [${b.get(key) ?? ''}]`);
    }
  }
  if (ftsDiff.length > 0) {
    differences.push({
      table: 'notes_fts',
      onlyLive: ftsDiff.slice(0, options.maxPerTable),
      onlyFresh: [],
      count: ftsDiff.length,
    });
  }
  return {
    differences,
    rows: Object.values(fresh.tables).reduce((n, t) => n + t.length, 0),
    terms: terms.length,
  };
}

function multisetDiff(a, b) {
  const counts = new Map();
  for (const x of a) counts.set(x, (counts.get(x) ?? 0) + 1);
  const onlyB = [];
  for (const x of b) {
    const n = counts.get(x) ?? 0;
    if (n === 0) onlyB.push(x);
    else counts.set(x, n - 1);
  }
  const onlyA = [];
  for (const [x, n] of counts) for (let i = 0; i < n; i++) onlyA.push(x);
  return { onlyA, onlyB };
}

/** Words every run's notes contain, searched besides each note's own tokens. */
const WORDS = ['agent', 'editor', 'rewrote', 'follow', 'shared', 'start', 'appended', 'created', 'note'];

/**
 * The same questions for any server: what a user of the index sees. `tokens` are words to search
 * for (each note's latest tokens); `notes` the notes to ask links of.
 */
export async function indexAnswers(call, { notes, tokens }) {
  const ask = async (tool, args) => {
    const r = await call(tool, args);
    return r.isError ? { error: r.structured?.code ?? 'error' } : r.structured;
  };
  const answers = {};
  answers.list_notes = await ask('list_notes', { limit: 500 });
  answers.list_tags = await ask('list_tags', {});
  answers.list_tasks = await ask('list_tasks', { status: 'all', limit: 500 });
  answers.query_notes = await ask('query_notes', {
    filters: [{ property: 'rev', op: 'is_not_empty' }],
    columns: ['rev', 'tags'],
    sort: [{ property: 'rev', direction: 'asc' }],
  });
  for (const note of notes) {
    answers[`get_backlinks ${note}`] = await ask('get_backlinks', { name: note });
    answers[`get_outgoing_links ${note}`] = await ask('get_outgoing_links', { name: note });
  }
  // Hits of operators alone score by recency (SPEC 17.7): the score moves with the clock, and the
  // fresh index is asked seconds after the live ones, so only their order is compared.
  const operatorsOnly = ['tag:#topic', 'tag:#edited', 'tag:#scratch', 'path:scratch'];
  for (const query of [...WORDS, ...tokens, ...operatorsOnly]) {
    const r = await ask('search_notes', { query, max_results: 50 });
    if (Array.isArray(r.results)) {
      for (const hit of r.results) {
        if (operatorsOnly.includes(query)) delete hit.score;
        else hit.score = round(hit.score);
      }
    }
    answers[`search_notes ${query}`] = r;
  }
  return labelIds(answers);
}

/** The fields of results that hold a note's id (SPEC 17.3); `$id` is query_notes' beside its columns. */
const ID_FIELD = /"(id|\$id|noteId|targetId|sourceId)":"(n[0-9a-z]{5,15})"/g;

/** `answers` with each note id replaced by a label, in the order the ids first appear. */
function labelIds(answers) {
  let json = JSON.stringify(answers);
  const labels = new Map();
  for (const [, , id] of json.matchAll(ID_FIELD)) {
    if (!labels.has(id)) labels.set(id, `<id ${labels.size + 1}>`);
  }
  for (const [id, label] of labels) json = json.replaceAll(id, label);
  return JSON.parse(json);
}

/** The questions whose answers differ, with both answers. */
export function compareAnswers(a, b) {
  const out = [];
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const x = JSON.stringify(a[key]);
    const y = JSON.stringify(b[key]);
    if (x !== y) out.push({ question: key, live: x?.slice(0, 600), fresh: y?.slice(0, 600) });
  }
  return out;
}
