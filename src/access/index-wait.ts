/**
 * @module
 * Waiting for the index while it is built or caught up on start (SPEC 14.1). A call that needs it
 * waits, and sees the build's progress on its Work (progress notifications, when its client asked);
 * after `maxWaitMs` it is answered `busy` with how far the build is, so no client waits minutes for
 * an answer it cannot see coming. A cancelled call stops waiting.
 */
import { NotedError } from '../common/errors.js';
import type { Work } from '../common/work.js';
import type { IndexState, NoteIndex } from '../index/sync/note-index.js';

/** The longest a call waits for the index before it is answered `busy` (SPEC 14.1). */
export const INDEX_WAIT_MS = 30_000;

/** How often a waiting call looks at the build's progress. */
const LOOK_EVERY_MS = 250;

export async function waitForIndex(index: NoteIndex, work: Work, maxWaitMs = INDEX_WAIT_MS): Promise<void> {
  if (index.state().state === 'ready') return;
  const deadline = performance.now() + maxWaitMs;
  // Settles either way; the state says how.
  const settled = index.whenReady().then(
    () => undefined,
    () => undefined,
  );
  for (;;) {
    const now = index.state();
    if (now.state === 'ready') return;
    if (now.state === 'failed') throw buildFailed(now.error);
    if (now.state === 'building') work.report(now.done, now.total ?? undefined, buildMessage(now));
    await work.checkpoint();
    const left = deadline - performance.now();
    if (left <= 0) throw stillBuilding(now);
    await Promise.race([settled, sleep(Math.min(LOOK_EVERY_MS, left))]);
  }
}

/** "reading notes: 45,000 of 100,000 (45%)", as a waiting call's progress message. */
export function buildMessage(state: Extract<IndexState, { state: 'building' }>): string {
  if (state.total === null || state.total === 0) return `Building the search index: ${state.step}`;
  const percent = Math.floor((100 * state.done) / state.total);
  return `Building the search index: ${state.step}, ${state.done.toLocaleString('en-US')} of ${state.total.toLocaleString('en-US')} (${percent}%)`;
}

function stillBuilding(state: IndexState): NotedError {
  const how = state.state === 'building' ? buildMessage(state) : 'Building the search index';
  return new NotedError(
    'busy',
    `${how}. This call needs the index and was not run; nothing was changed. Try again in a minute (get_vault_info shows how far the build is).`,
    { committed: false, index: state },
  );
}

function buildFailed(error: string): NotedError {
  return new NotedError(
    'not_supported',
    `The search index could not be built (${error}), so this call cannot run. Tell the vault's owner: the server's log says why; fix that and restart the server.`,
    { committed: false },
  );
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
