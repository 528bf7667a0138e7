/**
 * @module
 * create_note's `template` (SPEC 13.3): the template note is found by its bare name in the folder
 * the Templates core plugin is set to (`.obsidian/templates.json`), else looked up like any note
 * name; its core Templates variables are filled (markdown/templates.ts), and the agent's content
 * follows it. A hidden template answers exactly like a missing one.
 */
import { isNotedError, NotedError } from '../../common/errors.js';
import { findBlock } from '../../markdown/frontmatter/frontmatter.js';
import { dateTools } from '../../markdown/templates.js';
import { normalizeNoteName } from '../../vault/names.js';
import type { StoredNote } from '../../vault/vault.js';
import type { AccessContext } from '../context.js';
import { readTemplateSettings } from '../obsidian-settings.js';
import { notFound, resolveExisting } from '../resolve.js';
import type { Rules } from '../rules/rules.js';

/**
 * The text a note created from `template` starts with: the template filled for a note titled
 * `title` at the gate's clock, then `content` after one blank line.
 */
export async function textFromTemplate(
  ctx: AccessContext,
  rules: Rules,
  template: string,
  title: string,
  content: string,
): Promise<string> {
  const settings = readTemplateSettings(ctx.vault.root);
  const stored = readTemplate(ctx, rules, template, settings.folder);
  const { fillTemplate } = await dateTools();
  const filled = fillTemplate(stored.text, {
    title,
    now: ctx.now(),
    dateFormat: settings.dateFormat,
    timeFormat: settings.timeFormat,
  });
  return withContentAfter(filled, content);
}

/**
 * The template note `input` names: `<folder>/<input>` when `folder` (the Templates folder) holds it,
 * else the note `input` resolves to like any name. `not_found` says where it looked.
 */
export function readTemplate(ctx: AccessContext, rules: Rules, input: string, folder: string): StoredNote {
  let name: string | null = null;
  if (folder !== '' && !/[/\\]/.test(input)) {
    const inFolder = normalizeNoteName(`${folder}/${input}`, ctx.vault.ending);
    if (ctx.vault.exists(inFolder, rules.sight) && rules.accessOf(inFolder) !== 'hidden') name = inFolder;
  }
  try {
    name ??= resolveExisting(ctx, rules, input);
  } catch (err) {
    if (!isNotedError(err) || err.code !== 'not_found') throw err;
    const where = folder === '' ? '' : ` in the templates folder "${folder}" or`;
    throw new NotedError(
      'not_found',
      `No template note "${input}" was found${where} anywhere in the vault. Nothing was written. Give the template's name or path (list_notes with the templates folder shows them).`,
      { name: input },
    );
  }
  const stored = ctx.vault.read(name, rules.sight);
  if (stored === null) throw notFound(name);
  if (!stored.lossless) {
    throw new NotedError(
      'not_supported',
      `The template "${name}" holds bytes that are not valid UTF-8, so it cannot be filled in. Nothing was written.`,
      { name },
    );
  }
  return stored;
}

/** `content` after the template's text, one blank line between; a second frontmatter block is refused. */
function withContentAfter(template: string, content: string): string {
  if (content.trim() === '') return template;
  if (template.trim() === '') return content;
  if (findBlock(content) !== null) {
    throw new NotedError(
      'validation_error',
      "content starts with a frontmatter block, but with a template the note's frontmatter comes from the template. Nothing was written. Leave the block out of content (pass tags with tags, and set other properties afterwards with edit_note set_properties).",
    );
  }
  const eol = template.match(/\r?\n/)?.[0] ?? '\n';
  const end = template.endsWith('\n') ? '' : eol;
  return `${template}${end}${eol}${content}`;
}
