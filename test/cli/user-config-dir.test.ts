/** Where the journal key and anchors live (SPEC 6.2): the user's configuration folder for Noted. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { userConfigDir } from '../../src/cli/config.js';

describe('userConfigDir', () => {
  it('is $NOTED_MCP_CONFIG_DIR, else $XDG_CONFIG_HOME/noted-mcp, else ~/.config/noted-mcp; relative values are ignored', () => {
    expect(userConfigDir({ NOTED_MCP_CONFIG_DIR: '/k', XDG_CONFIG_HOME: '/x', HOME: '/h' })).toBe('/k');
    expect(userConfigDir({ XDG_CONFIG_HOME: '/x', HOME: '/h' })).toBe(path.join('/x', 'noted-mcp'));
    expect(userConfigDir({ NOTED_MCP_CONFIG_DIR: 'k', XDG_CONFIG_HOME: 'x', HOME: '/h' })).toBe(
      path.join('/h', '.config', 'noted-mcp'),
    );
  });
});
