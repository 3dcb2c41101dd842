/** The skills extension's names app/mcp/skills/methods.ts writes out are the SDK's own. */
import * as sdk from '@modelcontextprotocol/server/ext/skills';
import { expect, it } from 'vitest';
import { SKILLS_EXTENSION_ID, SKILLS_GET_METHOD, SKILLS_LIST_METHOD } from '../../../app/mcp/skills/methods.js';

it('names the extension and its methods as the SDK does', () => {
  expect([SKILLS_EXTENSION_ID, SKILLS_LIST_METHOD, SKILLS_GET_METHOD]).toEqual([
    sdk.SKILLS_EXTENSION_ID,
    sdk.SKILLS_LIST_METHOD,
    sdk.SKILLS_GET_METHOD,
  ]);
});
