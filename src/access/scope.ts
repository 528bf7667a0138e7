/**
 * @module
 * What the index queries are told about the policy: the `visible` predicate, given only when some
 * folder is hidden, so that queries skip the check entirely otherwise.
 */
import type { VisibilityOption } from '../index/visibility.js';
import type { Rules } from './rules.js';

export function visibleOption(rules: Rules): VisibilityOption {
  return rules.visible === undefined ? {} : { visible: rules.visible };
}
