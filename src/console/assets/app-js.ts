/**
 * @module
 * `/app.js`: the console's browser code, put together from its parts in one strict-mode function so
 * nothing leaks into the page's globals. Served as a file because the CSP allows no inline script.
 */
import { APP_CORE } from './app-core.js';
import { APP_REVIEW } from './app-review.js';
import { APP_SETTINGS } from './app-settings.js';

const SOURCE = `(function () {\n'use strict';\n${APP_CORE}\n${APP_REVIEW}\n${APP_SETTINGS}\n})();\n`;

export function appJs(): string {
  return SOURCE;
}
