/**
 * A save made in an editor while the server is making an agent's change is kept (SPEC 1.7, 2.2, 6.1).
 * The server checks the agent's etag under the note's lock, then records the change in the journal
 * (several fsyncs), then writes; editors take no lock, so a save can land in between. The server looks
 * at the file once more right before its rename: the agent gets `conflict` with the saved text, the
 * note keeps the save, and the journal voids the change it had recorded (`not_applied`).
 *
 * Regression: found by test/reliability/concurrency.test.ts, where about one direct save in six was
 * overwritten that way, under load, by a change computed from the version before it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Journal } from '../../src/journal/journal.js';
import type { RecordInput } from '../../src/journal/record-input.js';
import { etagOf } from '../../src/vault/etag.js';
import { openTestVault, type TestVault, testJournalKey } from '../helpers/vault.js';

let v: TestVault | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await v?.close();
  v = undefined;
});

const START = '# N\n\none\n';
const SAVED = '# N\n\nsaved in an editor\n';

/** Saves `SAVED` over the note right after the journal has recorded an agent's update of it. */
function saveWhenRecorded(file: string): void {
  const record = Journal.prototype.record;
  vi.spyOn(Journal.prototype, 'record').mockImplementation(function (this: Journal, input: RecordInput) {
    const entry = record.call(this, input);
    if (input.kind === 'update') fs.writeFileSync(file, SAVED);
    return entry;
  });
}

describe('a save made while the server writes the same note', () => {
  it.each([
    [
      'edit_note',
      (etag: string) => ({
        name: 'n',
        operation: 'replace',
        old_text: 'one',
        new_text: 'two',
        expected_etag: etag,
      }),
    ],
    ['update_note', (etag: string) => ({ name: 'n', content: '# N\n\ntwo\n', expected_etag: etag })],
  ] as const)(
    '%s: conflict with the saved text, the save kept, the recorded change voided',
    async (tool, args) => {
      v = await openTestVault({ 'n.md': START });
      const file = path.join(v.opened.vault.root, 'n.md');
      const read = await v.call('read_note', { name: 'n' });
      saveWhenRecorded(file);

      const r = await v.call(tool, args(read.structured.etag));

      expect(r.isError).toBe(true);
      expect(r.structured).toMatchObject({
        code: 'conflict',
        committed: false,
        currentEtag: etagOf(SAVED),
        currentText: SAVED,
      });
      expect(fs.readFileSync(file, 'utf8')).toBe(SAVED);
      vi.restoreAllMocks();

      const journal = new Journal(v.opened.vault, { now: () => new Date(), key: testJournalKey() });
      expect(journal.verify().ok).toBe(true);
      const [voiding, recorded] = journal.list({ note: 'n.md', limit: 2 });
      expect(recorded).toMatchObject({
        kind: 'update',
        tool,
        beforeSha256: etagOf(START).slice(7),
      });
      expect(voiding).toMatchObject({
        kind: 'not_applied',
        voids: recorded?.id,
        beforeSha256: etagOf(SAVED).slice(7),
        afterSha256: etagOf(SAVED).slice(7),
      });

      // The agent redoes its change on the saved text, as the conflict tells it to.
      const again = await v.call('update_note', {
        name: 'n',
        content: `${SAVED}two\n`,
        expected_etag: r.structured.currentEtag,
      });
      expect(again.isError).toBe(false);
      expect(fs.readFileSync(file, 'utf8')).toBe(`${SAVED}two\n`);
    },
  );
});
