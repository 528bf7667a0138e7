/**
 * @module
 * `delete_note {copied_to}` (SPEC 17.1): "copy, then retire the original" never loses the text. The
 * deletion goes ahead only when the named copy exists, is visible to the agent, is another note, and
 * holds the same body (its frontmatter may differ); otherwise it is refused with `conflict`.
 */
import { NotedError } from '../common/errors.js';
import { formatOf } from '../format/formats.js';
import type { AccessContext } from './context.js';
import { resolveExisting } from './resolve.js';
import type { Rules } from './rules/rules.js';

/**
 * Refuses the deletion of `name` (whose stored text is `text`) unless `copiedTo` names another visible
 * note with the same body. Called under the note's lock, after the note was read.
 *
 * @throws NotedError `conflict` with `committed: false`.
 */
export function requireCopied(
  ctx: AccessContext,
  rules: Rules,
  name: string,
  text: string,
  copiedTo: string,
): void {
  const refuse = (why: string, extra: Record<string, unknown> = {}) =>
    new NotedError(
      'conflict',
      `${name} was not deleted: ${why}. Make the copy first (create_note or update_note with the same body), then delete with copied_to naming it.`,
      { name, copiedTo, committed: false, ...extra },
    );
  let copy: string;
  try {
    copy = resolveExisting(ctx, rules, copiedTo);
  } catch (err) {
    if (err instanceof NotedError && err.code === 'not_found')
      throw refuse(`its copy "${copiedTo}" does not exist`);
    throw err;
  }
  if (copy === name) throw refuse(`copied_to names the note itself`);
  const stored = ctx.vault.read(copy, rules.sight);
  if (stored === null) throw refuse(`its copy "${copiedTo}" does not exist`);
  const format = formatOf(ctx.vault);
  if (format.view(stored.text).body !== format.view(text).body) {
    throw refuse(`the body of ${copy} differs from the body of ${name}`, { copy, copyEtag: stored.etag });
  }
}
