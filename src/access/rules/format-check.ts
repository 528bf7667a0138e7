/**
 * @module
 * A server keeps the format it opened the vault with. When `noted-mcp convert` finished meanwhile
 * (it records the new format in `.noted/config.json`), the notes this server knows are gone: every
 * request answers `busy` saying to restart, rather than an empty or half-seen vault.
 */
import fs from 'node:fs';
import path from 'node:path';
import { NotedError } from '../../common/errors.js';
import { readVaultConfig } from '../../vault/config.js';
import type { FormatName } from '../../vault/format-name.js';
import type { Vault } from '../../vault/vault.js';

export class FormatCheck {
  private seen = '';
  private configured: FormatName | undefined;

  constructor(private readonly vault: Pick<Vault, 'stateDir' | 'format'>) {}

  /** Throws `busy` when config.json names another format than the one this server serves. */
  check(): void {
    const file = path.join(this.vault.stateDir, 'config.json');
    let stamp = '';
    try {
      const st = fs.statSync(file);
      stamp = `${st.mtimeMs}:${st.size}:${st.ino}`;
    } catch {
      stamp = 'none';
    }
    if (stamp !== this.seen) {
      this.seen = stamp;
      try {
        this.configured = stamp === 'none' ? undefined : readVaultConfig(this.vault.stateDir).format;
      } catch {
        // A broken config.json is reported when a server starts; it does not stop one that runs.
        this.configured = undefined;
      }
    }
    if (this.configured !== undefined && this.configured !== this.vault.format) {
      throw new NotedError(
        'busy',
        `The vault was converted to ${this.configured === 'html' ? 'HTML' : 'Markdown'} notes after this server started, so the notes it knows are gone. Restart the server (or ask the user to reconnect it) to serve the converted vault.`,
      );
    }
  }
}
