/**
 * @module bench/lib/measure
 * Timed tool calls through a connected client: the search query set and the other read
 * tools, each with one warm-up call and K timed calls, failures collected as text.
 */

import { benchQueries } from './queries.mjs';
import { summarize } from './stats.mjs';

/** Per-call timeout: generous, so a slow call is measured rather than aborted. */
const CALL_TIMEOUT_MS = 120_000;

function errorText(res) {
  const text = (res.content ?? [])
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
  return text.length > 600 ? `${text.slice(0, 600)}…` : text;
}

/** One timed tool call; protocol failures come back as `{ error }` rather than throwing. */
export async function timedCall(session, name, args, timeout = CALL_TIMEOUT_MS) {
  const t = performance.now();
  try {
    const res = await session.client.callTool({ name, arguments: args }, { timeout });
    const ms = performance.now() - t;
    if (res.isError) return { ms, res, error: `isError: ${errorText(res)}` };
    return { ms, res };
  } catch (err) {
    return { ms: performance.now() - t, error: `threw: ${err?.message ?? err}` };
  }
}

export async function measureSearch(session, rounds, failures) {
  const queries = benchQueries();
  const byKind = queries.map((q) => ({ ...q, samples: [], errors: 0, total: null, firstError: null }));
  const all = [];
  for (let round = -1; round < rounds; round++) {
    for (const q of byKind) {
      const r = await timedCall(session, 'search_notes', { query: q.query });
      if (r.error) {
        q.errors++;
        q.firstError ??= r.error;
        continue;
      }
      q.total = r.res.structuredContent?.total ?? null;
      if (round < 0) continue;
      q.samples.push(r.ms);
      all.push(r.ms);
    }
    if (!session.isAlive()) throw new Error('server exited during the search benchmark');
  }
  let errors = 0;
  for (const q of byKind) {
    errors += q.errors;
    if (q.firstError)
      failures.push(`search_notes ${JSON.stringify(q.query)} (${q.errors} failed) → ${q.firstError}`);
  }
  return {
    rounds,
    errors,
    overall: summarize(all),
    byKind: byKind.map((q) => ({
      kind: q.kind,
      query: q.query,
      why: q.why,
      total: q.total,
      errors: q.errors,
      ...summarize(q.samples),
    })),
  };
}

/** Describes a tool result in a few words (how much came back). */
function describe(name, sc) {
  if (!sc || typeof sc !== 'object') return '';
  const len = (v) => (Array.isArray(v) ? v.length : '?');
  switch (name) {
    case 'list_notes':
      return `${len(sc.notes)} notes${sc.nextCursor ? ' + cursor' : ''}`;
    case 'read_note':
      return `${sc.sizeBytes ?? '?'} bytes`;
    case 'get_backlinks':
      return sc.total === len(sc.backlinks)
        ? `${sc.total} backlinks`
        : `${len(sc.backlinks)} of ${sc.total} backlinks`;
    case 'list_tags':
      return `${len(sc.tags)} tags`;
    case 'list_tasks':
      return `${len(sc.tasks)} tasks`;
    case 'get_outgoing_links':
      return `${len(sc.links)} links`;
    default:
      return '';
  }
}

export async function measureTools(session, offered, vault, rounds, failures) {
  const sample = vault.manifest?.sample ?? [];
  const mostLinked = vault.manifest?.mostLinked?.[0];
  if (sample.length === 0 && offered.has('list_notes')) {
    // A vault not made by the generator: take notes from the listing.
    const r = await timedCall(session, 'list_notes', { limit: 50 });
    for (const n of r.res?.structuredContent?.notes ?? []) sample.push(n.name);
  }
  const nth = (i) => sample[i % Math.max(1, sample.length)];
  const plans = [
    { tool: 'list_notes', args: () => ({ limit: 50 }), label: 'limit 50' },
    { tool: 'read_note', args: (i) => ({ name: nth(i) }), label: `${sample.length} sampled notes` },
    {
      tool: 'get_backlinks',
      args: () => ({ name: mostLinked ?? nth(0) }),
      label: mostLinked ? 'most-linked note' : 'a listed note',
    },
    { tool: 'list_tags', args: () => ({}), label: '' },
    {
      tool: 'list_tasks',
      args: () => ({ status: 'open', due_to: '2026-12-31', limit: 50 }),
      label: 'open, due_to 2026-12-31, limit 50',
    },
    { tool: 'get_outgoing_links', args: (i) => ({ name: nth(i) }), label: `${sample.length} sampled notes` },
  ];
  const list = [];
  for (const p of plans) {
    if (!offered.has(p.tool)) {
      list.push({ tool: p.tool, skipped: 'not offered' });
      continue;
    }
    if (sample.length === 0 && p.label.includes('note')) {
      list.push({ tool: p.tool, skipped: 'no note to ask about' });
      continue;
    }
    const samples = [];
    let errors = 0;
    let firstError = null;
    let detail = '';
    for (let i = -1; i < rounds; i++) {
      const r = await timedCall(session, p.tool, p.args(i + 1));
      if (r.error) {
        errors++;
        firstError ??= `${JSON.stringify(p.args(i + 1))} → ${r.error}`;
        continue;
      }
      if (i < 0) detail = describe(p.tool, r.res.structuredContent);
      else samples.push(r.ms);
    }
    if (!session.isAlive()) throw new Error(`server exited while benchmarking ${p.tool}`);
    if (firstError) failures.push(`${p.tool} (${errors} failed): ${firstError}`);
    list.push({ tool: p.tool, args: p.label, detail, errors, ...summarize(samples) });
  }
  return { rounds, list };
}
