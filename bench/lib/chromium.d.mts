/** Types of chromium.mjs, for the TypeScript tests that share it. */

export const CHROMIUM: string;
export const CHROMIUM_ARGS: string[];
