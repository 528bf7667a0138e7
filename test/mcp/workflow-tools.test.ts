import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal } from '../../src/journal/journal.js';
import { PendingStore } from '../../src/staging/pending-store.js';
import { connect, openTestVault, readBytes, type TestVault, testJournalKey } from '../helpers/vault.js';

let vaults: TestVault[] = [];
afterEach(async () => {
  for (const v of vaults) await v.close();
  vaults = [];
});

async function open(files: Record<string, string> = {}): Promise<TestVault> {
  const v = await openTestVault(files);
  vaults.push(v);
  return v;
}

const RELEASE = {
  title: 'Release 2.0',
  states: ['draft', 'review', 'approved', 'released'],
  gates: ['approved'],
  description: 'Ship version 2.0 once the review passes.',
};

function noteText(v: TestVault, name: string): string {
  return readBytes(v.dir, name)?.toString() ?? '';
}

/** The workflow metadata as stored in the note's ```json block. */
function storedWorkflow(v: TestVault, name: string) {
  const text = noteText(v, name);
  const start = text.indexOf('```json\n') + '```json\n'.length;
  return JSON.parse(text.slice(start, text.indexOf('\n```\n', start)));
}

describe('a workflow run through the tools (SPEC 7)', () => {
  it('create → event → advance → refused at a pending gate → rejected → refused → approved → advance to the end', async () => {
    const v = await open();
    const created = await v.call('create_agent_workflow', RELEASE);
    expect(created.isError).toBe(false);
    expect(created.structured).toMatchObject({
      name: 'workflows/Release 2.0.md',
      created: true,
      workflow: {
        title: 'Release 2.0',
        states: RELEASE.states,
        current: 'draft',
        next: 'review',
        gates: [{ state: 'approved', status: 'pending' }],
        eventCount: 1,
      },
      event: { actor: 'noted-test' },
    });
    const name = 'workflows/Release 2.0.md';
    expect(noteText(v, name)).toContain('# Release 2.0\n\nShip version 2.0 once the review passes.\n');
    let etag: string = created.structured.etag;

    const logged = await v.call('append_agent_event', {
      name,
      expected_etag: etag,
      message: 'Wrote the changelog',
    });
    expect(logged.structured.workflow).toMatchObject({ current: 'draft', eventCount: 2 });
    expect(logged.structured.event).toMatchObject({ actor: 'noted-test', message: 'Wrote the changelog' });
    etag = logged.structured.etag;

    const toReview = await v.call('advance_agent_state', {
      name: 'Release 2.0',
      expected_etag: etag,
      message: 'Ready.',
    });
    expect(toReview.structured.workflow).toMatchObject({ current: 'review', next: 'approved' });
    expect(toReview.structured.event.message).toBe('Advanced from draft to review. Ready.');
    etag = toReview.structured.etag;

    const blocked = await v.call('advance_agent_state', { name, expected_etag: etag });
    expect(blocked.isError).toBe(true);
    expect(blocked.structured).toMatchObject({
      code: 'validation_error',
      committed: false,
      current: 'review',
      gate: { state: 'approved', status: 'pending' },
    });
    expect(blocked.text).toMatch(/gate on "approved" is still pending/);
    expect((await v.call('read_note', { name })).structured.etag).toBe(etag);

    const rejected = await v.call('reject_agent_gate', {
      name,
      expected_etag: etag,
      state: 'approved',
      reason: 'Two tests fail on Windows',
    });
    expect(rejected.structured.workflow.gates).toEqual([
      {
        state: 'approved',
        status: 'rejected',
        by: 'noted-test',
        reason: 'Two tests fail on Windows',
        at: rejected.structured.event.at,
      },
    ]);
    etag = rejected.structured.etag;
    const stillBlocked = await v.call('advance_agent_state', { name, expected_etag: etag, to: 'released' });
    expect(stillBlocked.structured.code).toBe('validation_error');
    expect(stillBlocked.text).toMatch(/was rejected by noted-test: "Two tests fail on Windows"/);

    const approved = await v.call('approve_agent_gate', {
      name,
      expected_etag: etag,
      state: 'approved',
      reason: 'Fixed; all green',
    });
    expect(approved.structured.workflow.gates[0]).toMatchObject({
      status: 'approved',
      by: 'noted-test',
      reason: 'Fixed; all green',
    });
    etag = approved.structured.etag;
    const toApproved = await v.call('advance_agent_state', { name, expected_etag: etag });
    expect(toApproved.structured.workflow.current).toBe('approved');
    const toReleased = await v.call('advance_agent_state', {
      name,
      expected_etag: toApproved.structured.etag,
      to: 'released',
    });
    expect(toReleased.structured.workflow).toMatchObject({ current: 'released', next: null, eventCount: 7 });
    const end = await v.call('advance_agent_state', { name, expected_etag: toReleased.structured.etag });
    expect(end.structured.code).toBe('validation_error');
    expect(end.text).toMatch(/already in its last state "released"/);

    // The note is what a person reads: the summary and the log follow the json block.
    const text = noteText(v, name);
    expect(text).toContain('**Current state:** released (4 of 4) · next: none, this is the last state');
    expect(text).toContain('| 3 | approved | gate approved by noted-test (');
    expect(text).toContain('Gate on approved rejected: Two tests fail on Windows');
    expect(text).toContain('Gate on approved approved (it was rejected): Fixed; all green');
    const stored = storedWorkflow(v, name);
    expect(stored.current).toBe('released');
    expect(stored.events.map((e: { message: string }) => e.message.split(/[.:]/)[0])).toEqual([
      'Created with the states draft → review → approved → released (gates on approved)',
      'Wrote the changelog',
      'Advanced from draft to review',
      'Gate on approved rejected',
      'Gate on approved approved (it was rejected)',
      'Advanced from review to approved',
      'Advanced from approved to released',
    ]);

    // Every change is an ordinary journaled write; refusals wrote nothing.
    const entries = new Journal(v.opened.vault, { now: () => new Date(), key: testJournalKey() })
      .list()
      .reverse();
    expect(entries.map((e) => [e.tool, e.kind, e.note, e.client])).toEqual([
      ['create_agent_workflow', 'create', name, 'noted-test'],
      ['append_agent_event', 'update', name, 'noted-test'],
      ['advance_agent_state', 'update', name, 'noted-test'],
      ['reject_agent_gate', 'update', name, 'noted-test'],
      ['approve_agent_gate', 'update', name, 'noted-test'],
      ['advance_agent_state', 'update', name, 'noted-test'],
      ['advance_agent_state', 'update', name, 'noted-test'],
    ]);
  });

  it('two advances with the same etag: exactly one wins, the other is a conflict with the current text', async () => {
    const v = await open();
    const created = await v.call('create_agent_workflow', { title: 'Race', states: ['a', 'b', 'c'] });
    const other = await connect(v.dir, {});
    try {
      const args = { name: 'workflows/Race', expected_etag: created.structured.etag };
      const results = await Promise.all([
        v.call('advance_agent_state', args),
        v.call('advance_agent_state', args),
        other.call('advance_agent_state', args),
      ]);
      const won = results.filter((r) => !r.isError);
      const lost = results.filter((r) => r.isError);
      expect(won).toHaveLength(1);
      expect(lost.map((r) => r.structured.code)).toEqual(['conflict', 'conflict']);
      for (const r of lost) {
        expect(r.structured).toMatchObject({ committed: false, currentEtag: won[0]?.structured.etag });
        expect(r.structured.currentText).toBe(noteText(v, 'workflows/Race.md'));
      }
      expect(storedWorkflow(v, 'workflows/Race.md').current).toBe('b');
      expect(storedWorkflow(v, 'workflows/Race.md').events).toHaveLength(2);
    } finally {
      await other.close();
    }
  });

  it("keeps the person's own text around the generated block byte for byte", async () => {
    const v = await open();
    const created = await v.call('create_agent_workflow', { ...RELEASE, name: 'projects/release' });
    const name = 'projects/release.md';
    const original = noteText(v, name);
    const mine = `${original.replace('# Release 2.0\n', '# Release 2.0\n\nMy notes *before*, kept.\n')}\n## After\n\nMine too.\n`;
    fs.writeFileSync(path.join(v.dir, name), mine);
    const etag = (await v.call('read_note', { name })).structured.etag;
    expect(etag).not.toBe(created.structured.etag);
    const advanced = await v.call('advance_agent_state', { name, expected_etag: etag });
    expect(advanced.isError).toBe(false);
    const text = noteText(v, name);
    expect(text.slice(0, mine.indexOf('<!-- agent-workflow:begin'))).toBe(
      mine.slice(0, mine.indexOf('<!-- agent-workflow:begin')),
    );
    expect(text.endsWith('<!-- agent-workflow:end -->\n\n## After\n\nMine too.\n')).toBe(true);
  });

  it('a stale etag is a conflict; nothing is written', async () => {
    const v = await open();
    const created = await v.call('create_agent_workflow', { title: 'T', states: ['a', 'b'] });
    const before = noteText(v, 'workflows/T.md');
    const r = await v.call('append_agent_event', {
      name: 'workflows/T',
      expected_etag: 'sha256:stale',
      message: 'x',
    });
    expect(r.structured).toMatchObject({
      code: 'conflict',
      committed: false,
      currentEtag: created.structured.etag,
    });
    expect(r.structured.currentText).toBe(before);
    expect(noteText(v, 'workflows/T.md')).toBe(before);
  });

  it('names: from the title in workflows/ (" 2" when taken), or as given; never over an existing note', async () => {
    const v = await open({ 'taken.md': 'mine\n' });
    const first = await v.call('create_agent_workflow', { title: 'Q3: plan', states: ['a', 'b'] });
    const second = await v.call('create_agent_workflow', { title: 'Q3: plan', states: ['a', 'b'] });
    expect([first.structured.name, second.structured.name]).toEqual([
      'workflows/Q3 plan.md',
      'workflows/Q3 plan 2.md',
    ]);
    const clash = await v.call('create_agent_workflow', { title: 'X', states: ['a', 'b'], name: 'Taken' });
    expect(clash.structured).toMatchObject({ code: 'already_exists', committed: false });
    expect(noteText(v, 'taken.md')).toBe('mine\n');
  });
});

describe('malformed workflow notes are clear validation_errors, and nothing is written', () => {
  it('broken JSON, an unknown state, a note that is no workflow, an unknown target state or gate', async () => {
    const v = await open({ 'plain.md': '# Just a note\n' });
    const created = await v.call('create_agent_workflow', { title: 'W', states: ['a', 'b'], gates: ['b'] });
    const name = 'workflows/W.md';
    const good = noteText(v, name);
    const cases: [string, string, Record<string, unknown>, RegExp][] = [
      [name, good.replace('"current": "a",', '"current": "a"'), {}, /its ```json block is not valid JSON/],
      [
        name,
        good.replace('"current": "a"', '"current": "shipped"'),
        {},
        /"current" is "shipped", which is not one of its states \(a, b\)/,
      ],
      ['plain.md', '# Just a note\n', {}, /has no agent workflow block/],
      [name, good, { to: 'shipped' }, /"shipped" is not one of the workflow's states \(a, b\)/],
    ];
    for (const [note, text, extra, message] of cases) {
      fs.writeFileSync(path.join(v.dir, note), text);
      const etag = (await v.call('read_note', { name: note })).structured.etag;
      const r = await v.call('advance_agent_state', { name: note, expected_etag: etag, ...extra });
      expect(r.structured.code, String(message)).toBe('validation_error');
      expect(r.structured.committed).toBe(false);
      expect(r.text).toMatch(message);
      expect(noteText(v, note)).toBe(text);
    }
    fs.writeFileSync(path.join(v.dir, name), good);
    const unknownGate = await v.call('approve_agent_gate', {
      name,
      expected_etag: created.structured.etag,
      state: 'a',
      reason: 'x',
    });
    expect(unknownGate.structured.code).toBe('validation_error');
    expect(unknownGate.text).toMatch(/the state "a" has no gate \(gates are on "b"\)/);
    const bad = await v.call('create_agent_workflow', { title: 'Bad', states: ['a', 'b'], gates: ['c'] });
    expect(bad.structured.code).toBe('validation_error');
    expect(fs.existsSync(path.join(v.dir, 'workflows', 'Bad.md'))).toBe(false);
  });
});

describe('the policy applies to workflow notes (SPEC 4, 5.1)', () => {
  const POLICY = 'default: read-write\nfolders:\n  drafts: staged\n  archive: read-only\n';

  it('staged folders refuse every workflow tool with staged; read-only folders with read_only', async () => {
    const v = await open();
    const made = await v.call('create_agent_workflow', {
      title: 'S',
      states: ['a', 'b'],
      name: 'drafts/flow',
    });
    const made2 = await v.call('create_agent_workflow', {
      title: 'R',
      states: ['a', 'b'],
      name: 'archive/flow',
    });
    fs.writeFileSync(path.join(v.dir, '.noted', 'mcp-policy.yaml'), POLICY);
    for (const [folder, code] of [
      ['drafts', 'staged'],
      ['archive', 'read_only'],
    ] as const) {
      const etag = folder === 'drafts' ? made.structured.etag : made2.structured.etag;
      const before = noteText(v, `${folder}/flow.md`);
      const calls: [string, Record<string, unknown>][] = [
        ['create_agent_workflow', { title: 'New', states: ['a', 'b'], name: `${folder}/new` }],
        ['append_agent_event', { name: `${folder}/flow`, expected_etag: etag, message: 'm' }],
        ['advance_agent_state', { name: `${folder}/flow`, expected_etag: etag }],
        ['approve_agent_gate', { name: `${folder}/flow`, expected_etag: etag, state: 'b', reason: 'r' }],
        ['reject_agent_gate', { name: `${folder}/flow`, expected_etag: etag, state: 'b', reason: 'r' }],
      ];
      for (const [tool, args] of calls) {
        const r = await v.call(tool, args);
        expect(r.structured.code, `${tool} in ${folder}`).toBe(code);
        expect(r.structured.committed).toBe(false);
      }
      expect(noteText(v, `${folder}/flow.md`)).toBe(before);
      expect(fs.existsSync(path.join(v.dir, folder, 'new.md'))).toBe(false);
    }
    expect(new PendingStore(v.opened.vault).list()).toEqual([]);
  });
});
