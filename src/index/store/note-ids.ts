/**
 * @module
 * Notes' ids (SPEC 17.3): short, opaque strings an agent can hold on to while a note moves.
 *
 * An id is `n`, the note's stable key (`notes.uid`, or the row id a new note keeps) scrambled and in
 * base 36, and a four-character tag: an HMAC of the key under a secret made with the index. The key follows the note
 * through every move the feed pairs (feed/recorder.ts) and lives in the index file, so it survives
 * restarts; an index rebuilt from nothing makes a new secret and counts keys from 1 again, so an id
 * from before fails the tag (in all but about one case in 1.7 million) instead of naming some other
 * note that now has its key.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { type Db, reusedStatement } from '../db/database.js';

/** What an id looks like; anything else is refused as malformed before the index is asked. */
export const NOTE_ID_PATTERN = /^n[0-9a-z]{5,15}$/;

const TAG_CHARS = 4;
const TAG_RANGE = 36 ** TAG_CHARS;

const secrets = new WeakMap<Db, Buffer>();

/** The index's id secret, made the first time it is asked for and kept in `meta` (as feedCursorKey). */
function secretOf(db: Db): Buffer {
  const known = secrets.get(db);
  if (known !== undefined) return known;
  const read = () =>
    db.prepare<[], { value: string }>("SELECT value FROM meta WHERE key = 'note_id_secret'").get()?.value;
  let stored = read();
  if (stored === undefined) {
    db.prepare('INSERT OR IGNORE INTO meta(key, value) VALUES (?, ?)').run(
      'note_id_secret',
      randomBytes(16).toString('hex'),
    );
    // Another process may have made it first: the stored one holds.
    stored = read() as string;
  }
  const secret = Buffer.from(stored, 'hex');
  secrets.set(db, secret);
  return secret;
}

function tagOf(secret: Buffer, key: number): string {
  const mac = createHmac('sha256', secret).update(String(key)).digest();
  return (mac.readUInt32BE(0) % TAG_RANGE).toString(36).padStart(TAG_CHARS, '0');
}

/**
 * Keys are counted, and a count would tell an agent how many notes were made between two it can see,
 * hidden ones among them (SPEC 4): the key is shown scrambled, by a keyed permutation of 40-bit
 * numbers (a four-round Feistel network), so ids say nothing of order or gaps.
 */
const HALF_BITS = 20;
const HALF = 2 ** HALF_BITS;

function round(secret: Buffer, n: number, half: number): number {
  return createHmac('sha256', secret).update(`${n}:${half}`).digest().readUInt32BE(0) % HALF;
}

function scramble(secret: Buffer, key: number, backwards: boolean): number {
  let left = Math.floor(key / HALF);
  let right = key % HALF;
  if (!backwards) {
    for (let n = 0; n < 4; n++) [left, right] = [right, left ^ round(secret, n, right)];
  } else {
    for (let n = 3; n >= 0; n--) [left, right] = [right ^ round(secret, n, left), left];
  }
  return left * HALF + right;
}

/**
 * Ids made, by index and key: five HMACs make one, and a page of search hits asks for one per hit
 * (about a tenth of a search's CPU time uncached, bench/cpu-compare.mjs). An id never changes for its
 * key under one secret, so the cache is never stale; it is emptied when it grows past a bound.
 */
const made = new WeakMap<Db, Map<number, string>>();
const MADE_MAX = 100_000;

/** The id of the note with stable key `key`. */
function formatNoteId(db: Db, key: number): string {
  let ids = made.get(db);
  if (ids === undefined) {
    ids = new Map();
    made.set(db, ids);
  }
  const known = ids.get(key);
  if (known !== undefined) return known;
  const secret = secretOf(db);
  // Keys past 2^40 (a trillion notes made) are shown as they are.
  const shown = key < HALF * HALF ? scramble(secret, key, false) : key;
  const id = `n${shown.toString(36)}${tagOf(secret, key)}`;
  if (ids.size >= MADE_MAX) ids.clear();
  ids.set(key, id);
  return id;
}

/** The stable key an id names in this index, or null when it is not one of this index's ids. */
function keyOfNoteId(db: Db, id: string): number | null {
  if (!NOTE_ID_PATTERN.test(id)) return null;
  const shown = Number.parseInt(id.slice(1, -TAG_CHARS), 36);
  if (!Number.isSafeInteger(shown)) return null;
  const secret = secretOf(db);
  const key = shown < HALF * HALF ? scramble(secret, shown, true) : shown;
  if (key < 1) return null;
  return tagOf(secret, key) === id.slice(-TAG_CHARS) ? key : null;
}

/** The path of the indexed note with this id, or null (unknown, from another index, or deleted). */
export function pathOfNoteId(db: Db, id: string): string | null {
  const key = keyOfNoteId(db, id);
  if (key === null) return null;
  const moved = reusedStatement<[number], { path: string }>(db, 'SELECT path FROM notes WHERE uid = ?').get(
    key,
  );
  if (moved !== undefined) return moved.path;
  return (
    reusedStatement<[number], { path: string }>(
      db,
      'SELECT path FROM notes WHERE id = ? AND uid IS NULL',
    ).get(key)?.path ?? null
  );
}

/** The id of the indexed note at `path`, or undefined when no note is indexed there. */
export function noteIdAt(db: Db, path: string): string | undefined {
  const row = reusedStatement<[string], { uid: number }>(
    db,
    'SELECT coalesce(uid, id) AS uid FROM notes WHERE path = ?',
  ).get(path);
  return row === undefined ? undefined : formatNoteId(db, row.uid);
}
