/**
 * @module bench/lib/chromium
 * Debian's Chromium as the console's benchmark, its screenshot script and its browser tests launch it:
 * headless, no sandbox (containers), and nothing that reaches the network (the machine's is closed).
 */

export const CHROMIUM = '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
