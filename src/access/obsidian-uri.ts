/**
 * @module
 * The `obsidian://open` link that opens a note in Obsidian (SPEC 17.4): the vault by its folder's
 * name (how Obsidian names a vault), the file by its vault-relative path without `.md`, both
 * URL-encoded.
 *
 * @example
 * obsidianUri('/home/me/Notes', 'inbox/Q3 plan.md') // 'obsidian://open?vault=Notes&file=inbox%2FQ3%20plan'
 */
import path from 'node:path';

export function obsidianUri(vaultRoot: string, name: string): string {
  const file = name.toLowerCase().endsWith('.md') ? name.slice(0, -3) : name;
  return `obsidian://open?vault=${encodeURIComponent(path.basename(vaultRoot))}&file=${encodeURIComponent(file)}`;
}
