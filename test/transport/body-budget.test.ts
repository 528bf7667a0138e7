/**
 * Issue 25 item 8: request bodies are bounded in memory across concurrent requests. Ten concurrent
 * 15 MB bodies took the server from 80 MB to 577 MB; now each request reserves its body's size from a
 * budget before the body is read, waits (its socket unread) while the budget is taken, and is turned
 * away with 503 and Retry-After when it waited too long. Scaled down: a 2 MiB budget, 1.5 MB notes.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { BodyBudget } from '../../src/transport/body-budget.js';
import { MAX_BODY_BYTES } from '../../src/transport/http.js';
import { readBytes } from '../helpers/vault.js';
import { type HttpFixture, startFixture, TOKEN } from './http-fixture.js';

let fixture: HttpFixture | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

const MiB = 1024 * 1024;

describe('BodyBudget', () => {
  it('admits while there is room, queues in order, lets small requests pass, and gives up after the wait', async () => {
    const budget = new BodyBudget({ bytes: 100, waitMs: 60_000 });
    const a = await budget.reserve(60);
    const order: string[] = [];
    const b = budget.reserve(50).then((r) => {
      order.push('b');
      return r;
    });
    // 10 fits beside a, and is no larger than what waits: it passes.
    const small = await budget.reserve(10);
    expect(small).not.toBeNull();
    expect(budget.inUse).toBe(70);
    a?.();
    const released = await b;
    expect(order).toEqual(['b']);
    expect(budget.inUse).toBe(60);
    released?.();
    small?.();
    small?.();
    expect(budget.inUse).toBe(0);
    expect(budget.peak).toBe(70);
    const short = new BodyBudget({ bytes: 10, waitMs: 20 });
    const hold = await short.reserve(10);
    expect(await short.reserve(5)).toBeNull();
    hold?.();
    expect(await short.reserve(500)).not.toBeNull();
  });
});

describe('request bodies over HTTP', () => {
  it('ten concurrent 1.5 MB bodies are all answered, never more than the budget held at once', async () => {
    fixture = await startFixture({ bodyBudget: { bytes: 2 * MiB, waitMs: 60_000 } });
    const client = await fixture.connect('modern');
    const content = (i: number) => `${i}\n${'y'.repeat(1.5 * 1000 * 1000)}\n`;
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        client.call('create_note', { name: `big/n${i}`, content: content(i) }),
      ),
    );
    for (const r of results) expect(r.isError, r.text).toBe(false);
    for (let i = 0; i < 10; i++)
      expect(readBytes(fixture.dir, `big/n${i}.md`)?.toString() === content(i)).toBe(true);
    expect(fixture.http.bodies.peak).toBeGreaterThan(1.5 * 1000 * 1000);
    expect(fixture.http.bodies.peak).toBeLessThanOrEqual(2 * MiB);
    await expect.poll(() => fixture?.http.bodies.inUse, { timeout: 10_000 }).toBe(0);
  });

  it('a body declared over the cap is refused before it is read (413)', async () => {
    fixture = await startFixture();
    const head = await rawHead(fixture, MAX_BODY_BYTES + 1);
    expect(head.status).toBe(413);
    expect(head.text).toMatch(/Payload Too Large/);
    expect(fixture.http.bodies.inUse).toBe(0);
  });

  it('a request that waits too long for room gets 503 with Retry-After; the room comes back when the holder goes', async () => {
    fixture = await startFixture({ bodyBudget: { bytes: 1 * MiB, waitMs: 200 } });
    // Declares 900 KB and sends none of it: the reservation is held while the server waits for it.
    const holder = net.connect(Number(fixture.url.port), '127.0.0.1');
    holder.write(requestHead(fixture, 900 * 1024));
    await expect.poll(() => fixture?.http.bodies.inUse, { timeout: 10_000 }).toBe(900 * 1024);
    const turned = await fixture.raw({
      headers: fixture.authed({ 'mcp-protocol-version': '2026-07-28' }),
      body: 'x'.repeat(200 * 1024),
    });
    expect(turned.status).toBe(503);
    expect(turned.headers['retry-after']).toBe('5');
    expect(turned.body).toMatch(/retry in a few seconds/);
    holder.destroy();
    await expect.poll(() => fixture?.http.bodies.inUse, { timeout: 10_000 }).toBe(0);
    const modern = await fixture.connect('modern');
    expect((await modern.call('list_notes', {})).isError).toBe(false);
  });
});

function requestHead(f: HttpFixture, length: number): string {
  return [
    'POST /mcp HTTP/1.1',
    `Host: ${f.url.host}`,
    `Authorization: Bearer ${TOKEN}`,
    'Content-Type: application/json',
    'Accept: application/json, text/event-stream',
    `Content-Length: ${length}`,
    '',
    '',
  ].join('\r\n');
}

/** Sends only the head of a request declaring `length` bytes, and reads the answer. */
function rawHead(f: HttpFixture, length: number): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(f.url.port), '127.0.0.1');
    let text = '';
    const done = () => {
      socket.destroy();
      resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1]), text });
    };
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      // The answer is complete once its JSON message is in (the server keeps the connection open).
      if (text.includes('\r\n\r\n') && text.includes('"message"')) done();
    });
    socket.on('end', done);
    socket.on('error', reject);
    socket.write(requestHead(f, length));
  });
}
