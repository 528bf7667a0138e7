// The commands that install the published package, as the README and docs/clients.md show them.
// scripts/check-package.mjs runs each with the packed tarball in place of the package name, and
// the README test (test/docs/readme-commands.test.ts) holds the README to these forms.

/**
 * The dependencies whose install scripts build native modules: npm 12 runs no dependency install
 * script it was not told to (npm 11.16 and later warn). Equal to NATIVE_PACKAGES in
 * src/cli/launcher.ts (a test checks).
 */
export const ALLOW_SCRIPTS_FLAG = '--allow-scripts=better-sqlite3,@parcel/watcher';

export const PACKAGE_NAME = 'noted-mcp';

/** Words of each command before its own arguments; PACKAGE_NAME is where the package goes. */
export const INSTALL_GLOBAL = ['npm', 'install', '-g', ALLOW_SCRIPTS_FLAG, PACKAGE_NAME];
export const RUN_WITH_NPX = ['npx', '-y', ALLOW_SCRIPTS_FLAG, PACKAGE_NAME];

/** `words` with the package name replaced by `spec` (a tarball path). */
export function withPackage(words, spec) {
  return words.map((w) => (w === PACKAGE_NAME ? spec : w));
}
