/**
 * @module
 * How a client starts this server (SPEC 8.4, 15.1): either this very copy (`node /abs/index.cjs`,
 * a checkout or an `npm install -g`), or the published package through npx. The printed
 * configuration, the install command and the start-up message all name the server this way.
 */
import { quoteArg } from './io.js';

/** The command a client runs and its arguments, before `--notes-dir VAULT`. */
export interface Launcher {
  readonly command: string;
  readonly args: readonly string[];
}

/**
 * Dependencies whose install scripts build the native modules. npm 12 runs no dependency install
 * script it was not told to (npm 11.16 and later only warn), so the npx form names them.
 */
export const NATIVE_PACKAGES = ['better-sqlite3', '@parcel/watcher'] as const;

export const PACKAGE_NAME = 'noted-mcp';

/** `npx -y --allow-scripts=… noted-mcp`: the published package, fetched and built on first start. */
export const NPX_LAUNCHER: Launcher = {
  command: 'npx',
  args: ['-y', `--allow-scripts=${NATIVE_PACKAGES.join(',')}`, PACKAGE_NAME],
};

export function nodeLauncher(node: string, script: string): Launcher {
  return { command: node, args: [script] };
}

/**
 * True when `script` lives in npx's cache (`…/_npx/<hash>/…`). A configuration must not name such
 * a path: npm may clean its cache at any time, and the next start would fail.
 */
export function isNpxCached(script: string): boolean {
  return /[\\/]_npx[\\/]/.test(script);
}

/** The npx form when asked for or when running from npx's cache; else this copy. */
export function launcherFor(options: { node: string; script: string; npx: boolean }): Launcher {
  return options.npx || isNpxCached(options.script)
    ? NPX_LAUNCHER
    : nodeLauncher(options.node, options.script);
}

/** The launcher and `words` as one shell command line. */
export function commandLine(launcher: Launcher, words: readonly string[]): string {
  return [launcher.command, ...launcher.args, ...words].map(quoteArg).join(' ');
}
