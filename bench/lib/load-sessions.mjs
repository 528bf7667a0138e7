/**
 * @module bench/lib/load-sessions
 * Load over Streamable HTTP, shared by `test/reliability/load.test.ts` and `bench/load.mjs`: real SDK
 * clients (2025-era sessions and stateless 2026-07-28 clients), each making a deterministic mixed
 * stream of calls, one at a time, for rounds of fixed length; every call counted as sent, answered,
 * and as the answer it should have been.
 *
 * Each client writes only its own notes (`<folder>/<client>/note-N.md`, folder `load` by default), always with the etag of its
 * last write, so a write that fails is a failure of the server, not a race between clients. Two
 * kinds of calls are meant to fail and must fail with their code: `read_note` of a note that does
 * not exist (`not_found`) and `edit_note` with an etag one write old (`conflict`).
 */

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { rankedVocabulary } from './lexicon.mjs';
import { benchQueries } from './queries.mjs';
import { deriveSeed, mulberry32, pick, randInt } from './random.mjs';
import { percentile } from './stats.mjs';

/** The protocol revision of stateless clients. */
export const STATELESS_REVISION = '2026-07-28';

/** Which of `sessions` clients use the stateless revision: `stateless` of them, spread evenly. */
export function isStatelessClient(index, sessions, stateless) {
  return stateless > 0 && (index * stateless) % sessions < stateless;
}

/**
 * Connects `sessions` clients to `url` at once: `stateless` of them pinned to 2026-07-28 (no
 * session), the rest 2025-era (`initialize`, then `Mcp-Session-Id`).
 * @returns {Promise<{ index: number, name: string, era: 'session' | 'stateless', client: Client, transport: StreamableHTTPClientTransport }[]>}
 */
export async function connectClients({ url, token, sessions, stateless = 0, prefix = 'load' }) {
  const authProvider = { token: async () => token };
  const connected = await Promise.allSettled(
    Array.from({ length: sessions }, async (_, index) => {
      const era = isStatelessClient(index, sessions, stateless) ? 'stateless' : 'session';
      const name = `${prefix}-${String(index + 1).padStart(2, '0')}`;
      const client = new Client(
        { name, version: '1.0' },
        era === 'stateless' ? { versionNegotiation: { mode: { pin: STATELESS_REVISION } } } : {},
      );
      const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider });
      await client.connect(transport);
      return { index, name, era, client, transport };
    }),
  );
  const clients = connected.filter((c) => c.status === 'fulfilled').map((c) => c.value);
  const failed = connected.filter((c) => c.status === 'rejected');
  if (failed.length > 0) {
    await closeClients(clients);
    throw new Error(
      `${failed.length} of ${sessions} clients could not connect: ${failed[0].reason?.message ?? failed[0].reason}`,
    );
  }
  return clients;
}

/** Ends each 2025-era session (DELETE /mcp) and closes every client; errors are collected. */
export async function closeClients(clients) {
  const errors = [];
  await Promise.all(
    clients.map(async (c) => {
      try {
        if (c.era === 'session') await c.transport.terminateSession();
        await c.client.close();
      } catch (err) {
        errors.push(`${c.name}: ${err?.message ?? err}`);
      }
    }),
  );
  return errors;
}

/**
 * What the vault offers to ask about: every note name (paged `list_notes`), the folders they are in,
 * and the tags (`list_tags`). Read through the server, so it works for any vault.
 */
export async function surveyVault(client, { hot = [], indexWaitMs = 600_000 } = {}) {
  const names = [];
  let cursor;
  // A server answers before its index is built; a tool then waits up to 30 s and answers `busy`,
  // which on a starved machine a 10k-note build outlasts: ask again until the index is there.
  const deadline = performance.now() + indexWaitMs;
  do {
    let res;
    for (;;) {
      res = await client.callTool({
        name: 'list_notes',
        arguments: { limit: 500, ...(cursor ? { cursor } : {}) },
      });
      if (res.structuredContent?.code !== 'busy' || performance.now() > deadline) break;
    }
    if (res.isError) throw new Error(`list_notes failed: ${JSON.stringify(res.structuredContent)}`);
    for (const n of res.structuredContent.notes) names.push(n.name);
    cursor = res.structuredContent.nextCursor ?? undefined;
  } while (cursor);
  const folders = [...new Set(names.map((n) => n.split('/').slice(0, -1).join('/')).filter(Boolean))].sort();
  const tagsRes = await client.callTool({ name: 'list_tags', arguments: { limit: 200 } });
  const tags = (tagsRes.structuredContent?.tags ?? []).map((t) => t.tag ?? t.name).filter(Boolean);
  return { names, folders, tags, hot: hot.length > 0 ? hot : names.slice(0, 5) };
}

/** How often each kind of call comes, relative to the others. */
export const DEFAULT_WEIGHTS = Object.freeze({
  search_notes: 24,
  read_note: 18,
  list_notes: 8,
  get_backlinks: 8,
  list_tags: 5,
  list_tasks: 7,
  query_notes: 8,
  create_note: 6,
  edit_note: 9,
  update_note: 5,
  'read_note:not_found': 1,
  'edit_note:conflict': 1,
});

/**
 * The deterministic stream of calls of one client. `next()` gives `{ key, tool, args, expect, after }`:
 * `key` names the kind of call in the figures, `expect` is `'ok'` or the error code the answer must
 * carry, `after(structured)` records the etag of a write that succeeded. `weights` overrides
 * DEFAULT_WEIGHTS (0 leaves a kind out, e.g. to look at reads alone).
 */
export function createWorkload({ survey, seed, client, folder: base = 'load', weights = DEFAULT_WEIGHTS }) {
  const table = Object.entries({ ...DEFAULT_WEIGHTS, ...weights }).filter(([, w]) => w > 0);
  const totalWeight = table.reduce((sum, [, w]) => sum + w, 0);
  const rand = mulberry32(deriveSeed(seed, `load-client:${client}`));
  const queries = benchQueries().map((q) => q.query);
  const words = rankedVocabulary().words.slice(0, 5000);
  const folder = `${base}/${client}`;
  /** @type {{ name: string, n: number, etag: string, previousEtag: string | null, counter: number }[]} */
  const own = [];
  let created = 0;
  let missing = 0;

  const text = (n, counter) =>
    `# Note ${n} of ${client}\n\ncounter: ${counter}\n\n## Log\n\n- written by ${client}\n`;
  const anyNote = () => pick(rand, survey.names);

  const create = () => {
    created++;
    const n = created;
    return {
      key: 'create_note',
      tool: 'create_note',
      args: { name: `${folder}/note-${n}`, content: text(n, 0), tags: ['load'] },
      expect: 'ok',
      after: (s) => own.push({ name: s.name, etag: s.etag, previousEtag: null, counter: 0, n }),
    };
  };
  const wrote = (note, counter) => (s) => {
    note.previousEtag = note.etag;
    note.etag = s.etag;
    note.counter = counter;
  };

  const make = {
    search_notes: () => {
      const query = rand() < 0.7 ? pick(rand, queries) : pick(rand, words);
      const scoped = rand() < 0.2 && survey.folders.length > 0;
      return {
        query,
        max_results: pick(rand, [10, 10, 20, 50]),
        ...(scoped ? { folder: pick(rand, survey.folders) } : {}),
      };
    },
    read_note: () => ({ name: anyNote() }),
    list_notes: () =>
      rand() < 0.7 && survey.folders.length > 0
        ? { folder: pick(rand, survey.folders), limit: 50 }
        : { limit: 100 },
    get_backlinks: () => ({ name: rand() < 0.2 ? pick(rand, survey.hot) : anyNote() }),
    list_tags: () => (rand() < 0.5 ? {} : { limit: 50 }),
    list_tasks: () =>
      pick(rand, [
        { status: 'open', limit: 50 },
        { status: 'open', due_to: '2026-12-31', limit: 50 },
        ...(survey.folders.length > 0
          ? [{ status: 'all', folder: pick(rand, survey.folders), limit: 50 }]
          : []),
      ]),
    query_notes: () =>
      pick(rand, [
        {
          filters: [{ property: 'status', op: 'equals', value: 'draft' }],
          columns: ['status', 'due'],
          limit: 20,
        },
        ...(survey.tags.length > 0
          ? [
              {
                tag: pick(rand, survey.tags),
                sort: [{ property: 'due', direction: 'desc' }],
                columns: ['due'],
                limit: 20,
              },
            ]
          : []),
        ...(survey.folders.length > 0
          ? [
              {
                folder: pick(rand, survey.folders),
                filters: [{ property: 'due', op: 'before', value: '2025-06-01' }],
              },
            ]
          : []),
      ]),
  };

  return {
    own,
    next() {
      let r = rand() * totalWeight;
      let key = table[0][0];
      for (const [k, w] of table) {
        if (r < w) {
          key = k;
          break;
        }
        r -= w;
      }
      if (make[key]) return { key, tool: key, args: make[key](), expect: 'ok' };
      if (key === 'create_note' || own.length === 0) return create();
      const note = pick(rand, own);
      switch (key) {
        case 'edit_note': {
          const counter = note.counter + 1;
          const replace = rand() < 0.5;
          return {
            key,
            tool: 'edit_note',
            args: replace
              ? {
                  name: note.name,
                  operation: 'replace',
                  old_text: `counter: ${note.counter}\n`,
                  new_text: `counter: ${counter}\n`,
                  expected_etag: note.etag,
                }
              : {
                  name: note.name,
                  operation: 'append_to_section',
                  heading: 'Log',
                  content: `- edit ${randInt(rand, 1, 1_000_000)}\n`,
                  expected_etag: note.etag,
                },
            expect: 'ok',
            after: wrote(note, replace ? counter : note.counter),
          };
        }
        case 'update_note': {
          // The whole text again (the Log starts over), so notes stay small however long the run.
          const counter = note.counter + 1;
          return {
            key,
            tool: 'update_note',
            args: { name: note.name, content: text(note.n, counter), expected_etag: note.etag },
            expect: 'ok',
            after: wrote(note, counter),
          };
        }
        case 'read_note:not_found':
          missing++;
          return {
            key,
            tool: 'read_note',
            args: { name: `${base}/missing/${client}-${missing}` },
            expect: 'not_found',
          };
        case 'edit_note:conflict': {
          const stale = own.find((o) => o.previousEtag !== null);
          if (!stale) return { key: 'read_note', tool: 'read_note', args: { name: note.name }, expect: 'ok' };
          return {
            key,
            tool: 'edit_note',
            args: {
              name: stale.name,
              operation: 'append_to_section',
              heading: 'Log',
              content: '- this must not be written\n',
              expected_etag: stale.previousEtag,
            },
            expect: 'conflict',
          };
        }
        default:
          throw new Error(`unknown call kind ${key}`);
      }
    },
  };
}

/** Counters and latencies of one round. */
export function emptyTally() {
  return {
    sent: 0,
    answered: 0,
    ok: 0,
    expectedErrors: 0,
    unexpected: 0,
    transportErrors: 0,
    invalid: 0,
    /** The first few failures, as text. */
    failures: [],
    /** key → latencies in ms */
    latency: new Map(),
    /** client name → calls answered */
    byClient: new Map(),
    ms: 0,
  };
}

function fail(tally, message) {
  if (tally.failures.length < 20) tally.failures.push(message);
}

function summaryOf(res) {
  const s = res?.structuredContent;
  const text = JSON.stringify(s ?? res);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/**
 * Every client makes calls, one at a time, until `durationMs` has passed, then finishes its call in
 * flight. `check(raw)` (optional) validates every answer and throws when it is malformed.
 * @returns {Promise<ReturnType<typeof emptyTally>>}
 */
export async function runRound({ clients, workloads, durationMs, callTimeoutMs = 60_000, check }) {
  const tally = emptyTally();
  const started = performance.now();
  const end = started + durationMs;
  await Promise.all(
    clients.map(async (c, i) => {
      const workload = workloads[i];
      while (performance.now() < end) {
        const call = workload.next();
        tally.sent++;
        const t = performance.now();
        let res;
        try {
          res = await c.client.callTool(
            { name: call.tool, arguments: call.args },
            { timeout: callTimeoutMs },
          );
        } catch (err) {
          tally.transportErrors++;
          fail(
            tally,
            `${c.name} ${call.tool} ${JSON.stringify(call.args).slice(0, 200)} threw: ${err?.message ?? err}`,
          );
          continue;
        }
        const ms = performance.now() - t;
        tally.answered++;
        tally.byClient.set(c.name, (tally.byClient.get(c.name) ?? 0) + 1);
        const samples = tally.latency.get(call.key) ?? [];
        if (samples.length === 0) tally.latency.set(call.key, samples);
        samples.push(ms);
        try {
          check?.(res);
        } catch (err) {
          tally.invalid++;
          fail(tally, `${c.name} ${call.tool}: malformed answer: ${err?.message ?? err}`);
          continue;
        }
        const code = res.isError ? res.structuredContent?.code : undefined;
        if (call.expect === 'ok' && !res.isError) {
          tally.ok++;
          call.after?.(res.structuredContent);
        } else if (call.expect !== 'ok' && res.isError && code === call.expect) {
          tally.expectedErrors++;
        } else {
          tally.unexpected++;
          fail(
            tally,
            `${c.name} ${call.tool} ${JSON.stringify(call.args).slice(0, 200)}: expected ${call.expect}, got ${summaryOf(res)}`,
          );
        }
      }
    }),
  );
  tally.ms = performance.now() - started;
  return tally;
}

/** Per kind of call: n, p50, p95, p99 and max in ms (nearest rank), and all kinds together. */
export function latencyTable(tally) {
  const rows = [];
  const all = [];
  for (const [key, samples] of [...tally.latency.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const sorted = [...samples].sort((a, b) => a - b);
    all.push(...sorted);
    rows.push(latencyRow(key, sorted));
  }
  rows.push(
    latencyRow(
      'all',
      all.sort((a, b) => a - b),
    ),
  );
  return rows;
}

function latencyRow(key, sorted) {
  const r = (v) => (v === null ? null : Math.round(v * 10) / 10);
  return {
    key,
    n: sorted.length,
    p50: r(percentile(sorted, 50)),
    p95: r(percentile(sorted, 95)),
    p99: r(percentile(sorted, 99)),
    max: r(sorted.at(-1) ?? null),
  };
}

/** Adds the latencies and counters of `b` into a new tally. */
export function mergeTallies(a, b) {
  const merged = emptyTally();
  for (const t of [a, b]) {
    for (const k of [
      'sent',
      'answered',
      'ok',
      'expectedErrors',
      'unexpected',
      'transportErrors',
      'invalid',
      'ms',
    ]) {
      merged[k] += t[k];
    }
    merged.failures.push(...t.failures);
    for (const [key, samples] of t.latency) {
      merged.latency.set(key, [...(merged.latency.get(key) ?? []), ...samples]);
    }
    for (const [name, n] of t.byClient) merged.byClient.set(name, (merged.byClient.get(name) ?? 0) + n);
  }
  return merged;
}

/** The table of latencies as text lines. */
export function formatLatency(rows) {
  const head = `${'call'.padEnd(22)} ${'n'.padStart(6)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'max ms'.padStart(8)}`;
  const fmt = (v) => (v === null ? '-' : v.toFixed(1)).padStart(8);
  return [
    head,
    ...rows.map(
      (r) =>
        `${r.key.padEnd(22)} ${String(r.n).padStart(6)} ${fmt(r.p50)} ${fmt(r.p95)} ${fmt(r.p99)} ${fmt(r.max)}`,
    ),
  ];
}

/** Samples the server's memory every `everyMs` until `stop()`; `stop()` returns the samples. */
export function sampleMemory(read, everyMs = 250) {
  const samples = [];
  const take = () => {
    const m = read();
    if (m) samples.push(m);
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      return samples;
    },
  };
}

export const MB = 1024 * 1024;
