/**
 * Issue 25 item 1: planning a move grows linearly with the links it looks at. Work is counted, never
 * timed (test/helpers/string-work.ts): a note holding 200,000 links froze the server for minutes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { planMove } from '../../../src/access/moves/plan.js';
import type { Work } from '../../../src/common/work.js';
import { countStringWorkAsync } from '../../helpers/string-work.js';
import { openTestVault, type TestVault } from '../../helpers/vault.js';

let vaults: TestVault[] = [];
afterEach(async () => {
  for (const v of vaults) await v.close();
  vaults = [];
});

/** A vault with `pub/t.md`, a note repeating `[[t]] ` `links` times, and `sameNamed` other `t.md`. */
async function vaultWith(links: number, sameNamed: number): Promise<TestVault> {
  const files: Record<string, string> = { 'pub/t.md': 'target\n', 'pub/spam.md': '[[t]] '.repeat(links) };
  for (let i = 0; i < sameNamed; i++) files[`f${i}/t.md`] = `t ${i}\n`;
  const v = await openTestVault(files);
  vaults.push(v);
  return v;
}

/** A checkpoint that never yields: nothing but the plan runs while its work is counted. */
const UNYIELDING: Work = { report: () => undefined, checkpoint: async () => undefined, cancelled: false };

/** Plans `pub/t.md` → `pub/u.md` and counts the string work it takes. */
function planWork(v: TestVault, budget: number) {
  const access = v.opened.access;
  const rules = access.rules({ id: 'growth', clientName: () => 'test' });
  return countStringWorkAsync(
    () => planMove(access.ctx, rules, new Map([['pub/t.md', 'pub/u.md']]), true, UNYIELDING),
    { budget },
  );
}

describe('planning a move (move_note dry_run)', () => {
  it('of a note linked 200,000 times from one note costs about ten times 20,000 links', async () => {
    const small = await planWork(await vaultWith(20_000, 0), 100_000_000);
    const large = await planWork(await vaultWith(200_000, 0), 20 * small.work);
    const spam = large.result.sources.find((s) => s.name === 'pub/spam.md');
    expect(spam?.edits).toHaveLength(200_000);
    expect(spam?.text === '[[u]] '.repeat(200_000), 'every link rewritten').toBe(true);
    expect(large.work / small.work).toBeLessThan(12);
  });

  it('does not multiply the links by the notes sharing their name', async () => {
    const few = await planWork(await vaultWith(20_000, 2), 100_000_000);
    const many = await planWork(await vaultWith(20_000, 60), 20 * few.work);
    const spam = many.result.sources.find((s) => s.name === 'pub/spam.md');
    expect(spam?.text === '[[u]] '.repeat(20_000), 'every link rewritten').toBe(true);
    expect(many.work / few.work).toBeLessThan(1.5);
  });
});
