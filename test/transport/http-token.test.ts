/**
 * The HTTP token: kept in a 0600 file made once (SPEC 8.2), and compared in constant time.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TokenGuard, tokenProblem } from '../../src/transport/http-auth.js';
import { readOrCreateSecretFile, SecretFileError } from '../../src/vault/token-file.js';

let dir: string;
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function tmp(): string {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'noted-token-'));
  return dir;
}

describe('the token file', () => {
  it('is made with mode 0600 and 32 random bytes, then read back unchanged', () => {
    const file = path.join(tmp(), '.noted', 'mcp-http-token');
    const made = readOrCreateSecretFile(file);
    expect(made.created).toBe(true);
    expect(Buffer.from(made.secret, 'base64url')).toHaveLength(32);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const again = readOrCreateSecretFile(file);
    expect(again).toEqual({ secret: made.secret, file, created: false });
  });

  it('two servers starting at once agree on one token', () => {
    const file = path.join(tmp(), 'token');
    const results = Array.from({ length: 5 }, () => readOrCreateSecretFile(file));
    expect(new Set(results.map((r) => r.secret)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
  });

  it('a file others can read is set to 0600 and reported', () => {
    const file = path.join(tmp(), 'token');
    fs.writeFileSync(file, 'a-token-that-was-world-readable\n');
    fs.chmodSync(file, 0o644);
    const read = readOrCreateSecretFile(file);
    expect(read).toMatchObject({
      secret: 'a-token-that-was-world-readable',
      created: false,
      fixedMode: 0o644,
    });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('a symbolic link, a folder or an empty file is refused, and nothing is written through it', () => {
    const base = tmp();
    const secret = path.join(base, 'elsewhere');
    fs.writeFileSync(secret, 'not a token\n');
    fs.chmodSync(secret, 0o644);
    fs.symlinkSync(secret, path.join(base, 'link'));
    expect(() => readOrCreateSecretFile(path.join(base, 'link'))).toThrow(SecretFileError);
    expect(fs.statSync(secret).mode & 0o777).toBe(0o644);
    fs.symlinkSync(path.join(base, 'missing'), path.join(base, 'dangling'));
    expect(() => readOrCreateSecretFile(path.join(base, 'dangling'))).toThrow(SecretFileError);
    expect(fs.existsSync(path.join(base, 'missing'))).toBe(false);
    fs.mkdirSync(path.join(base, 'folder'));
    expect(() => readOrCreateSecretFile(path.join(base, 'folder'))).toThrow(SecretFileError);
    fs.writeFileSync(path.join(base, 'empty'), '\n', { mode: 0o600 });
    expect(() => readOrCreateSecretFile(path.join(base, 'empty'))).toThrow(/empty/);
  });
});

describe('the token check', () => {
  const token = 'the-right-token-0123456789';
  const guard = new TokenGuard(token);

  it('accepts the token in either header, and nothing near it', () => {
    expect(guard.check({ authorization: `Bearer ${token}` })).toEqual({ ok: true, missing: false });
    expect(guard.check({ 'x-mcp-token': token })).toEqual({ ok: true, missing: false });
    expect(guard.check({})).toEqual({ ok: false, missing: true });
    for (const near of [token.slice(0, -1), `${token}9`, token.toUpperCase(), ` ${token}x`, '']) {
      expect(guard.check({ authorization: `Bearer ${near}` }).ok, near).toBe(false);
      expect(guard.check({ 'x-mcp-token': near }).ok, near).toBe(false);
    }
    // A repeated header is not one credential.
    expect(guard.check({ 'x-mcp-token': [token, token] }).ok).toBe(false);
  });

  it('takes a query token only when the caller passes one', () => {
    expect(guard.check({}, token).ok).toBe(true);
    expect(guard.check({}, `${token}x`)).toEqual({ ok: false, missing: false });
  });

  it('refuses to guard with a short or unprintable token', () => {
    expect(tokenProblem('short')).toMatch(/at least 16/);
    expect(tokenProblem('has a space in the middle')).toMatch(/visible ASCII/);
    expect(tokenProblem('x'.repeat(16))).toBeNull();
    expect(() => new TokenGuard('')).toThrow(/unusable/);
  });
});
