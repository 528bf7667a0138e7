/**
 * @module
 * get_properties through the gate (SPEC 10): a note's frontmatter as typed properties, read from the
 * file itself (never stale). A type the owner assigned in Obsidian (`.obsidian/types.json`, PROP-11)
 * wins over the type inferred from the value.
 */
import type { JsonValue } from '../markdown/frontmatter/frontmatter.js';
import { parseFrontmatter } from '../markdown/frontmatter/frontmatter.js';
import { noteProperties, type PropertyType } from '../markdown/properties/properties.js';
import type { AccessContext } from './context.js';
import { readTypeAssignments } from './obsidian-settings.js';
import { notFound, resolveExisting } from './resolve.js';
import type { Rules } from './rules/rules.js';

export interface NoteProperties {
  readonly name: string;
  readonly properties: Record<string, JsonValue>;
  readonly types: Record<string, PropertyType>;
  /** Why the frontmatter does not parse, when it does not (then there are no properties, PROP-20). */
  readonly frontmatterError?: string;
}

export function getProperties(ctx: AccessContext, rules: Rules, input: string): NoteProperties {
  const name = resolveExisting(ctx, rules, input);
  const stored = ctx.vault.read(name, rules.sight);
  if (stored === null) throw notFound(name);
  const fm = parseFrontmatter(stored.text);
  const typed = noteProperties(fm.data, readTypeAssignments(ctx.vault.root));
  return {
    name,
    properties: typed.properties,
    types: typed.types,
    ...(fm.error === undefined ? {} : { frontmatterError: fm.error }),
  };
}
