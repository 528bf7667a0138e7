import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listTrash, moveToTrash, trashedBytes } from '../../src/vault/trash.js';
import { Vault } from '../../src/vault/vault.js';
import { vaultsRemovedAfterEach } from '../helpers/vault.js';

const tempVault = vaultsRemovedAfterEach();

/**
 * A hostile local process may swap a trashed note for a symbolic link after the trash was listed:
 * restoring must not bring a file from elsewhere into the vault (nor into the journal).
 */
describe('reading a trashed note', () => {
  it('reads the deleted note, and refuses one swapped for a link to a file outside the trash', () => {
    const { base, dir } = tempVault({ 'Old.md': '# Old\n', 'sub/Deep.md': '# Deep\n' });
    const outside = path.join(base, 'secret.txt');
    fs.writeFileSync(outside, 'private key');
    const vault = Vault.open(dir);
    moveToTrash(vault, 'Old.md', new Date('2026-01-01T00:00:00Z'));
    moveToTrash(vault, 'sub/Deep.md', new Date('2026-01-02T00:00:00Z'));
    const [deep, old] = listTrash(vault);
    expect(old?.name).toBe('Old.md');
    expect(deep?.name).toBe('sub/Deep.md');
    expect(trashedBytes(vault, old!).toString()).toBe('# Old\n');
    expect(trashedBytes(vault, deep!).toString()).toBe('# Deep\n');

    const stored = path.join(dir, '.noted', 'trash', old!.id, 'Old.md');
    fs.rmSync(stored);
    fs.symlinkSync(outside, stored);
    expect(() => trashedBytes(vault, old!)).toThrow();
    // A folder on the way swapped for a link to elsewhere is not followed either.
    const folder = path.join(dir, '.noted', 'trash', deep!.id, 'sub');
    fs.rmSync(folder, { recursive: true });
    fs.mkdirSync(path.join(base, 'elsewhere'));
    fs.writeFileSync(path.join(base, 'elsewhere', 'Deep.md'), 'private notes');
    fs.symlinkSync(path.join(base, 'elsewhere'), folder);
    let read: string | null = null;
    try {
      read = trashedBytes(vault, deep!).toString();
    } catch (err) {
      expect((err as Error).message).not.toContain('private');
    }
    expect(read).toBeNull();
  });
});
