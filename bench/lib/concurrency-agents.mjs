/**
 * @module bench/lib/concurrency-agents
 * The agents of the concurrency run: workers that, through real MCP clients of several server
 * processes, read shared notes and write them back with the etag they read (edit_note
 * `append_to_section` and `replace`, update_note whole and appended), redo a refused write on the
 * current text the conflict carries, and create, update and delete a few scratch notes. Every call and
 * its outcome is recorded with the version it was based on and the etag of the text it asked for
 * (computed here), for the checker.
 *
 * A server is `{name, call(tool, args) → Promise<{structured, isError}>}`.
 */

import { nowMs } from './concurrency-editor.mjs';
import {
  agentLine,
  appendToLog,
  appendWhole,
  etagOf,
  freshText,
  revEdit,
  rewrite,
  scratchText,
  token,
  wellFormed,
} from './concurrency-notes.mjs';
import { deriveSeed, mulberry32 } from './random.mjs';

/**
 * Error codes that are a normal answer for a scratch note: another agent deleted it between the read
 * and the write (`not_found`), or created it first (`already_exists`).
 */
const SCRATCH_CODES = new Set(['not_found', 'already_exists']);

/**
 * Runs `workers` workers on each server for `durationMs`. Returns the records and `texts`, every text
 * seen or asked for, by etag.
 */
export async function runAgents({ servers, workers, shared, scratch, seed, durationMs }) {
  const texts = new Map();
  const records = [];
  const problems = [];
  const end = nowMs() + durationMs;
  const loops = [];
  for (const [s, server] of servers.entries()) {
    for (let w = 0; w < workers; w++) {
      const ctx = {
        server,
        who: `${server.name}/w${w}`,
        prefix: `a${s}${w}`,
        rand: mulberry32(deriveSeed(seed, `agent-${s}-${w}`)),
        seq: 0,
        known: new Map(),
        texts,
        records,
        problems,
        shared,
        scratch,
      };
      loops.push(workerLoop(ctx, end));
    }
  }
  await Promise.all(loops);
  return { records, texts, problems };
}

async function workerLoop(ctx, end) {
  while (nowMs() < end) {
    if (ctx.scratch.length > 0 && ctx.rand() < 0.15) {
      await scratchStep(ctx, ctx.scratch[Math.floor(ctx.rand() * ctx.scratch.length)]);
    } else {
      const index = Math.floor(ctx.rand() * ctx.shared.length);
      await sharedStep(ctx, ctx.shared[index], index);
    }
  }
}

/** Calls a tool and records the call; returns the record. */
async function call(ctx, tool, args, fields) {
  const sent = nowMs();
  let answer;
  try {
    answer = await ctx.server.call(tool, args);
  } catch (err) {
    ctx.problems.push({ kind: 'exception', detail: `${ctx.who} ${tool}: ${err?.stack ?? err}` });
    return null;
  }
  const answered = nowMs();
  const s = answer.structured ?? {};
  const record = {
    who: ctx.who,
    tool,
    note: fields.note,
    op: fields.op,
    base: fields.base ?? null,
    // When the version written on was seen: the read or the refused write that carried it.
    baseSeen: fields.baseSeen ?? null,
    expected: fields.expected ?? null,
    sent,
    answered,
    outcome: answer.isError ? (s.code === 'conflict' ? 'conflict' : 'error') : 'ok',
    code: answer.isError ? (s.code ?? null) : null,
  };
  if (answer.isError && s.code === 'conflict') {
    record.current = s.currentEtag ?? null;
    if (typeof s.currentText === 'string') {
      ctx.texts.set(etagOf(s.currentText), s.currentText);
      if (etagOf(s.currentText) !== s.currentEtag) {
        ctx.problems.push({
          kind: 'conflict-shape',
          detail: `${ctx.who} ${tool} ${fields.note}: currentEtag does not name currentText`,
        });
      }
    } else {
      ctx.problems.push({
        kind: 'conflict-shape',
        detail: `${ctx.who} ${tool}: conflict without currentText`,
      });
    }
    if (s.currentEtag === fields.base) {
      ctx.problems.push({
        kind: 'false-conflict',
        detail: `${ctx.who} ${tool} ${fields.note}: conflict although the note is the version the write was based on`,
      });
    }
    if (s.committed !== false) {
      ctx.problems.push({
        kind: 'conflict-shape',
        detail: `${ctx.who} ${tool}: conflict without committed: false`,
      });
    }
  } else if (answer.isError) {
    record.message = s.message ?? '';
  } else {
    record.result = s.etag ?? null;
  }
  ctx.records.push(record);
  return { record, structured: s };
}

/** The version to write on: the last one this worker knows, or a fresh read. */
async function baseOf(ctx, note) {
  const known = ctx.known.get(note);
  ctx.known.delete(note);
  if (known !== undefined && ctx.rand() < 0.5) return known;
  const read = await call(ctx, 'read_note', { name: note }, { note, op: 'read' });
  if (read === null) return null;
  if (read.record.outcome !== 'ok') {
    if (!(ctx.scratch.includes(note) && read.record.code === 'not_found')) {
      ctx.problems.push({
        kind: 'unexpected-error',
        detail: `${ctx.who} read_note ${note}: ${read.record.code} ${read.record.message}`,
      });
    }
    return { missing: true };
  }
  const text = `${read.structured.frontmatterRaw ?? ''}${read.structured.body ?? ''}`;
  if (etagOf(text) !== read.structured.etag) {
    ctx.problems.push({
      kind: 'read-shape',
      detail: `${ctx.who} read_note ${note}: etag does not name frontmatterRaw + body`,
    });
  }
  ctx.texts.set(read.structured.etag, text);
  read.record.result = read.structured.etag;
  return { text, etag: read.structured.etag, seen: [read.record.sent, read.record.answered] };
}

function nextToken(ctx) {
  ctx.seq++;
  return token(ctx.prefix, ctx.seq);
}

/** One read-and-write of a shared note. */
async function sharedStep(ctx, note, index) {
  const base = await baseOf(ctx, note);
  if (base === null || base.missing) return;
  const tok = nextToken(ctx);
  const r = ctx.rand();
  let tool;
  let args;
  let text;
  let op;
  if (!wellFormed(base.text)) {
    op = 'update-fresh';
    text = freshText(index, ctx.shared.length, tok);
    tool = 'update_note';
    args = { name: note, content: text, expected_etag: base.etag };
  } else if (r < 0.35) {
    op = 'edit-append-section';
    const line = agentLine(ctx.rand, tok, ctx.shared.length);
    text = appendToLog(base.text, line);
    tool = 'edit_note';
    args = {
      name: note,
      operation: 'append_to_section',
      heading: 'Log',
      content: line,
      expected_etag: base.etag,
    };
  } else if (r < 0.55) {
    op = 'edit-replace';
    const edit = revEdit(base.text, tok);
    text = edit.text;
    tool = 'edit_note';
    args = {
      name: note,
      operation: 'replace',
      old_text: edit.oldText,
      new_text: edit.newText,
      expected_etag: base.etag,
    };
  } else if (r < 0.7) {
    op = 'update-append';
    const addition = `- ${tok} appended by update_note`;
    text = appendWhole(base.text, addition);
    tool = 'update_note';
    args = { name: note, content: addition, append: true, expected_etag: base.etag };
  } else if (r < 0.85) {
    op = 'update-rewrite';
    const topic = ['alpha', 'beta', 'gamma', 'delta'][Math.floor(ctx.rand() * 4)];
    text = rewrite(base.text, index, tok, `topic/${topic}`);
    tool = 'update_note';
    args = { name: note, content: text, expected_etag: base.etag };
  } else {
    op = 'update-whole';
    text = appendToLog(base.text, agentLine(ctx.rand, tok, ctx.shared.length));
    tool = 'update_note';
    args = { name: note, content: text, expected_etag: base.etag };
  }
  const expected = etagOf(text);
  ctx.texts.set(expected, text);
  const done = await call(ctx, tool, args, { note, op, base: base.etag, baseSeen: base.seen, expected });
  if (done === null) return;
  const { record, structured } = done;
  if (record.outcome === 'ok') {
    ctx.known.set(note, { text, etag: expected, seen: [record.sent, record.answered] });
  } else if (record.outcome === 'conflict') {
    // Redo on the text the conflict carries, as the error tells an agent to (SPEC 2.2).
    if (typeof structured.currentText === 'string') {
      ctx.known.set(note, {
        text: structured.currentText,
        etag: structured.currentEtag,
        seen: [record.sent, record.answered],
      });
    }
  } else {
    ctx.problems.push({
      kind: 'unexpected-error',
      detail: `${ctx.who} ${tool} ${note}: ${record.code} ${record.message}`,
    });
  }
}

/** Create a missing scratch note, or update or delete one that exists. */
async function scratchStep(ctx, note) {
  const base = await baseOf(ctx, note);
  if (base === null) return;
  const tok = nextToken(ctx);
  let done;
  if (base.missing) {
    const text = scratchText(note, tok);
    const expected = etagOf(text);
    ctx.texts.set(expected, text);
    done = await call(ctx, 'create_note', { name: note, content: text }, { note, op: 'create', expected });
  } else if (ctx.rand() < 0.5) {
    done = await call(
      ctx,
      'delete_note',
      { name: note, expected_etag: base.etag },
      { note, op: 'delete', base: base.etag, baseSeen: base.seen },
    );
  } else {
    const text = `${base.text}more ${tok}\n`;
    const expected = etagOf(text);
    ctx.texts.set(expected, text);
    done = await call(
      ctx,
      'update_note',
      { name: note, content: text, expected_etag: base.etag },
      { note, op: 'update', base: base.etag, baseSeen: base.seen, expected },
    );
  }
  if (done === null) return;
  const { record } = done;
  if (record.outcome === 'error' && !SCRATCH_CODES.has(record.code)) {
    ctx.problems.push({
      kind: 'unexpected-error',
      detail: `${ctx.who} ${record.tool} ${note}: ${record.code} ${record.message}`,
    });
  }
}
