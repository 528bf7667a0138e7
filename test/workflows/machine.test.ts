import { describe, expect, it } from 'vitest';
import { NotedError } from '../../src/common/errors.js';
import { advance, appendEvent, decideGate, newWorkflow, nextState } from '../../src/workflows/machine.js';
import type { Workflow } from '../../src/workflows/model.js';

const at = (n: number) => ({ at: `2026-05-0${n}T10:00:00.000Z`, actor: `agent-${n}` });

function release(): Workflow {
  return newWorkflow(
    {
      id: 'wf-1',
      title: 'Release',
      states: ['draft', 'review', 'approved', 'released'],
      gates: ['approved'],
    },
    at(1),
  ).workflow;
}

function refusal(fn: () => unknown): NotedError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(NotedError);
    return err as NotedError;
  }
  throw new Error('expected a refusal');
}

describe('a new workflow', () => {
  it('starts in its first state with its gates pending and one event', () => {
    const { workflow, event } = newWorkflow(
      { id: 'wf-1', title: 'T', states: ['a', 'b', 'c'], gates: ['c', 'B'] },
      at(1),
    );
    expect(workflow).toMatchObject({ current: 'a', states: ['a', 'b', 'c'] });
    // Gates are matched ignoring case and kept in state order.
    expect(workflow.gates).toEqual([
      { state: 'b', status: 'pending' },
      { state: 'c', status: 'pending' },
    ]);
    expect(workflow.events).toEqual([event]);
    expect(event).toMatchObject({ actor: 'agent-1', message: expect.stringContaining('a → b → c') });
  });

  it.each([
    [{ states: ['only'] }, /at least two states/],
    [{ title: '  ', states: ['a', 'b'] }, /its title is empty/],
    [{ states: ['a', 'A'] }, /names the state "A" twice/],
    [{ states: ['a', ' '] }, /item 2 is empty/],
    [{ states: ['a', 'b\nc'] }, /spans several lines/],
    [{ states: ['a', 'b'], gates: ['a'] }, /gate on the first state "a"/],
    [{ states: ['a', 'b'], gates: ['z'] }, /"z" is not one of the workflow's states \(a, b\)/],
    [{ states: ['a', 'b'], gates: ['b', 'b'] }, /named twice in gates/],
  ])('refuses %j with a validation_error saying why', (input, message) => {
    const err = refusal(() => newWorkflow({ id: 'x', title: 'T', ...input }, at(1)));
    expect(err.code).toBe('validation_error');
    expect(err.message).toMatch(message);
    expect(err.message).toMatch(/Nothing was written/);
  });
});

describe('advancing', () => {
  it('moves to the next state and logs the move with the message', () => {
    const step = advance(release(), at(2), undefined, 'Draft done.');
    expect(step.workflow.current).toBe('review');
    expect(step.event).toEqual({ ...at(2), message: 'Advanced from draft to review. Draft done.' });
    expect(step.workflow.events.at(-1)).toEqual(step.event);
    expect(nextState(step.workflow)).toBe('approved');
  });

  it('is refused onto a state whose gate is pending, and onto one jumped over', () => {
    const wf = advance(release(), at(2)).workflow;
    const onto = refusal(() => advance(wf, at(3)));
    expect(onto.code).toBe('validation_error');
    expect(onto.message).toMatch(/gate on "approved" is still pending/);
    expect(onto.details).toMatchObject({ current: 'review', gate: { state: 'approved', status: 'pending' } });
    const jump = refusal(() => advance(wf, at(3), 'released'));
    expect(jump.message).toMatch(/gate on "approved", which this move would skip, is still pending/);
  });

  it('is refused backwards, onto the current state, past the last, and to an unknown state', () => {
    const wf = advance(release(), at(2)).workflow;
    expect(refusal(() => advance(wf, at(3), 'draft')).message).toMatch(/only moves forward/);
    expect(refusal(() => advance(wf, at(3), 'review')).message).toMatch(/only moves forward/);
    expect(refusal(() => advance(wf, at(3), 'shipped')).message).toMatch(
      /"shipped" is not one of the workflow's states \(draft, review, approved, released\)/,
    );
    const end = newWorkflow({ id: 'x', title: 'T', states: ['a', 'b'] }, at(1)).workflow;
    const last = advance(end, at(2)).workflow;
    expect(refusal(() => advance(last, at(3))).message).toMatch(/already in its last state "b"/);
  });

  it('may jump to a later state when no gate stands in the way', () => {
    const wf = newWorkflow(
      { id: 'x', title: 'T', states: ['a', 'b', 'c', 'd'], gates: ['d'] },
      at(1),
    ).workflow;
    expect(advance(wf, at(2), 'C').workflow.current).toBe('c');
  });
});

describe('gates', () => {
  it('a rejection blocks, a later approval records who and why and lets the workflow advance', () => {
    let wf = advance(release(), at(2)).workflow;
    wf = decideGate(wf, at(3), 'approved', 'rejected', 'tests fail').workflow;
    expect(wf.gates).toEqual([
      { state: 'approved', status: 'rejected', by: 'agent-3', reason: 'tests fail', at: at(3).at },
    ]);
    expect(refusal(() => advance(wf, at(4))).message).toMatch(/was rejected by agent-3: "tests fail"/);
    const approved = decideGate(wf, at(5), 'Approved', 'approved', 'fixed and green');
    expect(approved.event.message).toBe('Gate on approved approved (it was rejected): fixed and green');
    wf = approved.workflow;
    expect(wf.gates[0]).toEqual({
      state: 'approved',
      status: 'approved',
      by: 'agent-5',
      reason: 'fixed and green',
      at: at(5).at,
    });
    expect(advance(wf, at(6)).workflow.current).toBe('approved');
  });

  it('refuses a state without a gate, and a gate the workflow has already reached', () => {
    const wf = release();
    expect(refusal(() => decideGate(wf, at(2), 'review', 'approved', 'x')).message).toMatch(
      /the state "review" has no gate \(gates are on "approved"\)/,
    );
    let passed = decideGate(wf, at(2), 'approved', 'approved', 'ok').workflow;
    passed = advance(advance(passed, at(3)).workflow, at(4)).workflow;
    expect(passed.current).toBe('approved');
    expect(refusal(() => decideGate(passed, at(5), 'approved', 'rejected', 'too late')).message).toMatch(
      /already in "approved", at or past the gate/,
    );
  });
});

it('events append without changing the state', () => {
  const wf = release();
  const step = appendEvent(wf, at(2), 'Wrote the changelog');
  expect(step.workflow.current).toBe('draft');
  expect(step.workflow.events).toHaveLength(2);
  expect(step.event).toEqual({ ...at(2), message: 'Wrote the changelog' });
});
