import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The project carries its own documents (README.md, docs/): every link in them resolves
 * inside the repository, and source comments cite those documents, never files outside
 * the repository.
 */

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const documents = [
  'README.md',
  ...readdirSync(path.join(repoRoot, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** Every `[text](target)` link's target; images too. */
function linksOf(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]!);
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** Every source file of the workspaces, without what is installed or built. */
function sourceFiles(folder: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (['node_modules', 'dist', 'artifacts', 'data'].includes(entry.name) || entry.name.startsWith('.')) continue;
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) found.push(...sourceFiles(full));
    else if (/\.(?:ts|tsx|js|mjs|cjs|css|html)$/.test(entry.name)) found.push(full);
  }
  return found;
}

const sources = ['apps', 'packages', 'e2e', 'bench']
  .map((folder) => path.join(repoRoot, folder))
  .filter((folder) => existsSync(folder))
  .flatMap(sourceFiles);

describe('the project documents', () => {
  it('are README.md, docs/spec.md, docs/decisions.md and docs/quality.md at least', () => {
    expect(documents).toEqual(
      expect.arrayContaining(['README.md', 'docs/spec.md', 'docs/decisions.md', 'docs/quality.md']),
    );
  });

  it.each(documents)('%s: every relative link resolves to a file in the repository', (document) => {
    const folder = path.dirname(path.join(repoRoot, document));
    const broken: string[] = [];
    for (const target of linksOf(readFileSync(path.join(repoRoot, document), 'utf8'))) {
      if (isExternal(target) || target.startsWith('#')) continue;
      const resolved = path.resolve(folder, decodeURIComponent(target.split('#')[0]!));
      const isInside = resolved === repoRoot || resolved.startsWith(`${repoRoot}${path.sep}`);
      if (!isInside || !existsSync(resolved)) broken.push(target);
      else expect(statSync(resolved).isFile() || statSync(resolved).isDirectory()).toBe(true);
    }
    expect(broken).toEqual([]);
  });

  it('README links the spec, the decisions and the quality catalogue', () => {
    const targets = linksOf(readFileSync(path.join(repoRoot, 'README.md'), 'utf8'));
    expect(targets).toEqual(expect.arrayContaining(['docs/spec.md', 'docs/decisions.md', 'docs/quality.md']));
  });
});

describe('source comments', () => {
  // Built from pieces, so that this file does not match itself.
  const outside = new RegExp(['\\.\\./shared', 'ARCHITECTURE\\.md', 'portal-spec\\.md', 'QUALITY\\.md'].join('|'));

  it('cite no document outside the repository', () => {
    expect(sources.length).toBeGreaterThan(50);
    const offending = sources.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          outside.test(line) ? [`${path.relative(repoRoot, file)}:${index + 1}: ${line.trim()}`] : [],
        ),
    );
    expect(offending).toEqual([]);
  });

  it('cite sections of docs/decisions.md that exist', () => {
    const headings = new Set(
      [...readFileSync(path.join(repoRoot, 'docs/decisions.md'), 'utf8').matchAll(/^#{2,3} (.+)$/gm)].map((match) =>
        match[1]!.trim(),
      ),
    );
    const citing = [...sources, ...documents.map((document) => path.join(repoRoot, document))];
    const missing: string[] = [];
    for (const file of citing) {
      for (const match of readFileSync(file, 'utf8').matchAll(/decisions\.md § ([^.),;:"`\n*]+)/g)) {
        const section = match[1]!.trim();
        if (!headings.has(section)) missing.push(`${path.relative(repoRoot, file)}: § ${section}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
