/**
 * @module
 * A pending change without its texts: what the journal and the lists are told of a decision.
 */
import type { PendingSummary } from './types.js';

export function withoutTexts(
  change: PendingSummary & { baseText?: unknown; newText?: unknown },
): PendingSummary {
  const { baseText: _b, newText: _n, ...summary } = change;
  return summary;
}
