import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { variables } from '../src/config.ts';
import { configurationDocPath, renderConfigurationDoc } from '../src/config-doc.ts';

/**
 * docs/configuration.md is written from the schema (`npm run docs:config`): a variable added,
 * renamed or redescribed in config.ts without writing the file again fails here.
 */
describe('docs/configuration.md', () => {
  it('is what the configuration schema writes (run `npm run docs:config` after changing config.ts)', async () => {
    expect(readFileSync(configurationDocPath, 'utf8')).toBe(await renderConfigurationDoc());
  });

  it('names every variable the server reads', () => {
    const document = readFileSync(configurationDocPath, 'utf8');
    const names = Object.keys(variables.shape).filter((name) => name !== 'INIT_CWD');
    expect(names.length).toBeGreaterThan(40);
    expect(names.filter((name) => !document.includes(`## \`${name}\``) && !document.includes(`, \`${name}\``))).toEqual(
      [],
    );
  });
});
