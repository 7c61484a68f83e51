import { describe, expect, it } from 'vitest';
import { i18n } from './i18n.ts';
import { meshFailureText } from './mesh-failure.ts';

describe("a worker's failure in words", () => {
  it('words each code as the viewers have always said it', () => {
    i18n.loadAndActivate({ locale: 'en', messages: {} });
    expect(meshFailureText({ error: 'status', status: 404 })).toBe('the server answered 404');
    expect(meshFailureText({ error: 'not-downloaded' })).toBe('it could not be downloaded');
    expect(meshFailureText({ error: 'not-stl' })).toBe('it is not a valid STL file');
    expect(meshFailureText({ error: 'no-mesh' })).toBe('its viewing copy holds no mesh');
    expect(meshFailureText({ error: 'copy-unreadable' })).toBe('its viewing copy could not be read');
    expect(meshFailureText({ error: 'unreadable' })).toBe('it could not be read');
  });
});
