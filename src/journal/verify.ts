/**
 * @module
 * Tamper evidence (SPEC 6.2): walks every day file in order and names the first entry where the hash
 * chain breaks. Each entry must hash to its own `hash`, carry the next `seq`, and point with `prev` at
 * the hash of the entry before it; so an entry that was changed, made up, removed, inserted or moved
 * breaks the chain at or right after the place it was touched.
 *
 * What a chain cannot show: entries cut off the end (the last entries removed together) leave a valid,
 * shorter chain. Compare the count with an earlier run of `verify` to notice that.
 */
import { entryHash, isEntry, parseEntryLine } from './entry.js';
import { dayFiles, linesOf } from './files.js';

export interface BrokenAt {
  /** The day file's name, e.g. `2026-12-01.jsonl`. */
  readonly file: string;
  /** 1-based line number in that file. */
  readonly line: number;
  /** The entry's id, when the line could be read as an entry. */
  readonly id?: string;
}

export type VerifyResult =
  | { readonly ok: true; readonly entries: number }
  | {
      readonly ok: false;
      /** How many entries before the break are intact. */
      readonly entries: number;
      readonly brokenAt: BrokenAt;
      readonly reason: string;
    };

export function verifyJournal(dir: string): VerifyResult {
  let expectedSeq = 1;
  let expectedPrev: string | null = null;
  let intact = 0;
  for (const file of dayFiles(dir)) {
    for (const line of linesOf(file)) {
      const at = { file: line.file, line: line.line };
      const broken = (reason: string, id?: string): VerifyResult => ({
        ok: false,
        entries: intact,
        brokenAt: id === undefined ? at : { ...at, id },
        reason,
      });
      if (line.torn) {
        return broken(
          'the last line is incomplete (a write was cut off); that change was never made, and the next journal write removes the cut-off line',
        );
      }
      if (line.text.trim() === '') return broken('an empty line where an entry should be');
      const parsed = parseEntryLine(line.text);
      if (!isEntry(parsed)) return broken(parsed.error);
      if (entryHash(parsed) !== parsed.hash) {
        return broken(
          "the entry's hash does not match its content: the entry was changed after it was written, or made up",
          parsed.id,
        );
      }
      if (parsed.seq !== expectedSeq) {
        return broken(
          `its seq is ${parsed.seq} where ${expectedSeq} was expected: an entry before it was removed or inserted, or entries were reordered`,
          parsed.id,
        );
      }
      if (parsed.prev !== expectedPrev) {
        return broken(
          'its prev does not match the hash of the entry before it: an entry before it was removed, replaced or reordered',
          parsed.id,
        );
      }
      intact++;
      expectedSeq++;
      expectedPrev = parsed.hash;
    }
  }
  return { ok: true, entries: intact };
}
