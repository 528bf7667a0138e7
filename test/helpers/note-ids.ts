/**
 * Comparing the answers of two servers over two index files (a vault with hidden notes against one
 * without them): each index makes its own ids (SPEC 17.3), so the ids' values differ by design. What
 * must not differ is everything else, and where ids stand: which items have one and which items
 * share one. So each id is replaced by a label in the order it first appears in the answers one
 * server gave — the same sequence of calls gives the same labels on both sides, unless an answer
 * leaks.
 */

import { expect } from 'vitest';

/** The fields that carry a note's id in results (`$id`: query_notes rows, beside their columns). */
const ID_FIELD = /"(id|\$id|noteId|targetId|sourceId)":"(n[0-9a-z]{5,15})"/g;

export class IdLabels {
  private readonly labels = new Map<string, string>();

  /** `value` with every note id it holds (in id fields, and then wherever it recurs) replaced by its label. */
  relabel<T>(value: T): T {
    if (value === undefined) return value;
    let json = JSON.stringify(value);
    for (const [, , id] of json.matchAll(ID_FIELD)) {
      if (!this.labels.has(id as string)) this.labels.set(id as string, `<id ${this.labels.size + 1}>`);
    }
    for (const [id, label] of this.labels) json = json.replaceAll(id, label);
    return JSON.parse(json) as T;
  }
}

/** Stands for a note's id in an exact comparison (its value is the index's own). */
export const AN_ID = expect.stringMatching(/^n[0-9a-z]{5,15}$/);
