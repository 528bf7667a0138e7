/**
 * @module
 * Headless Chromium for console tests (Debian's `/usr/bin/chromium`, driven by playwright-core): one
 * browser per test file, a fresh context per page, every page error and CSP violation collected, and
 * screenshots written to test/artifacts/ (gitignored).
 */
import fs from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS } from '../../bench/lib/chromium.mjs';
import { REPO } from '../helpers/server-process.js';
import type { ConsoleFixture } from './console-fixture.js';

export const ARTIFACTS = path.join(REPO, 'test', 'artifacts');

export interface BrowserPage {
  readonly page: Page;
  readonly context: BrowserContext;
  /** Page errors and console errors seen so far (CSP violations among them). */
  readonly errors: string[];
}

export interface BrowserHarness {
  /** A new browser context and page at this width, not signed in (scripts off when asked). */
  blank(width?: number, options?: { javaScriptEnabled?: boolean }): Promise<BrowserPage>;
  /** A new page signed in through a fresh one-time link of `f`, showing the console. */
  open(f: ConsoleFixture, width?: number): Promise<BrowserPage>;
}

/**
 * Registers the browser's lifecycle with vitest (launch before the file, close after; contexts
 * closed after each test) and returns a harness for the file's tests.
 *
 * `allowedErrors` lists console messages a test expects: a refusal the page shows (a stale approval, a
 * policy the parser refuses) and the sign-in page answered to a signed-out visit are logged by the
 * browser as failed resources too.
 */
export function useBrowser(allowedErrors: RegExp = /status of (400|401|404|409|413|422)/): BrowserHarness {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 30_000 });
    fs.mkdirSync(ARTIFACTS, { recursive: true });
  });
  afterAll(async () => browser?.close());
  afterEach(async () => {
    for (const c of contexts.splice(0)) await c.close();
  });

  const blank = async (width = 1280, options: { javaScriptEnabled?: boolean } = {}): Promise<BrowserPage> => {
    const context = await browser.newContext({ viewport: { width, height: 900 }, ...options });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    page.on('console', (msg) => {
      if (msg.type() === 'error' && !allowedErrors.test(msg.text())) errors.push(msg.text());
    });
    return { page, context, errors };
  };

  return {
    blank,
    open: async (f, width = 1280) => {
      const opened = await blank(width);
      await opened.page.goto(f.ui.loginUrl());
      await expect.poll(() => opened.page.url()).toBe(f.ui.url);
      return opened;
    },
  };
}

/** A full-page screenshot in test/artifacts/console-NAME.png. */
export function shot(page: Page, name: string): Promise<Buffer> {
  return page.screenshot({ path: path.join(ARTIFACTS, `console-${name}.png`), fullPage: true });
}

/** `expect.poll` with a deadline a busy shared machine can meet (vitest's default is one second). */
export function poll<T>(read: () => T | Promise<T>, timeout = 15_000) {
  return expect.poll(read, { timeout, interval: 50 });
}

/**
 * Confirms the open confirmation dialog as a person does: waits until its confirming button takes
 * input, then clicks it. Returns the dialog's text (what it said would happen).
 */
export async function confirmDialog(page: Page, label: string | RegExp): Promise<string> {
  const dialog = page.locator('dialog.confirm[open]');
  const go = dialog.getByRole('button', { name: label });
  await poll(() => go.isEnabled()).toBe(true);
  const text = (await dialog.textContent()) ?? '';
  await go.click();
  await poll(() => dialog.count()).toBe(0);
  return text;
}
