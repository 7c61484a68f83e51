import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The project carries its own documents (README.md, docs/): every link in them resolves
 * inside the repository, and source comments cite those documents, never files outside
 * the repository.
 */

const repoRoot = path.resolve(import.meta.dirname, '../../..');
/** README.md and every Markdown file under docs/, the topic folders included. */
const documents = [
  'README.md',
  ...readdirSync(path.join(repoRoot, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name.split(path.sep).join('/')}`)
    .sort(),
];
const read = (document: string) => readFileSync(path.join(repoRoot, document), 'utf8');

/** Every `[text](target)` link's target; images too. */
function linksOf(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]!);
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const withoutCode = markdown.replace(/^```[\s\S]*?^```/gm, '');
  for (const match of withoutCode.matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = match[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The text after a citation's `§`, on one line: comment markers of wrapped lines and extra spaces removed. */
function citedAfter(text: string, index: number): string {
  return text
    .slice(index, index + 240)
    .replace(/\n\s*(?:\*|\/\/|--|#)?\s*/g, ' ')
    .replace(/\s+/g, ' ')
    .trimStart();
}

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
  it('are README.md, docs/spec.md and the indexes of docs/decisions/ and docs/quality/ at least', () => {
    expect(documents).toEqual(
      expect.arrayContaining(['README.md', 'docs/spec.md', 'docs/decisions/README.md', 'docs/quality/README.md']),
    );
  });

  it.each(documents)(
    '%s: every relative link resolves to a file in the repository, and its anchor to a heading',
    (document) => {
      const folder = path.dirname(path.join(repoRoot, document));
      const broken: string[] = [];
      for (const target of linksOf(read(document))) {
        if (isExternal(target)) continue;
        const [file, anchor] = target.split('#') as [string, string | undefined];
        const resolved = file === '' ? path.join(repoRoot, document) : path.resolve(folder, decodeURIComponent(file));
        const isInside = resolved === repoRoot || resolved.startsWith(`${repoRoot}${path.sep}`);
        if (!isInside || !existsSync(resolved)) broken.push(target);
        else if (!statSync(resolved).isFile() && !statSync(resolved).isDirectory()) broken.push(target);
        else if (
          anchor !== undefined &&
          resolved.endsWith('.md') &&
          !anchorsOf(readFileSync(resolved, 'utf8')).has(anchor)
        )
          broken.push(target);
      }
      expect(broken).toEqual([]);
    },
  );

  it('README links the spec and the indexes of the decisions and the quality catalogue', () => {
    const targets = linksOf(read('README.md'));
    expect(targets).toEqual(
      expect.arrayContaining([
        'docs/spec.md',
        'docs/decisions/README.md',
        'docs/quality/README.md',
        'docs/contributing.md',
        'docs/configuration.md',
        'docs/operations.md',
      ]),
    );
  });

  // A newcomer follows the recipes file by file: each path they name is there.
  it.each(['README.md', 'docs/contributing.md'])('%s: every repository path it names in code exists', (document) => {
    const named = [...read(document).matchAll(/`((?:apps|packages|e2e|bench|docs)\/[\w./-]+)`/g)].map(
      (match) => match[1]!,
    );
    expect(named.length).toBeGreaterThan(document === 'README.md' ? 0 : 30);
    // Written by the tests themselves (E2E_SCREENSHOTS=1).
    const missing = named.filter((name) => name !== 'e2e/artifacts/' && !existsSync(path.join(repoRoot, name)));
    expect(missing).toEqual([]);
  });

  it.each(['docs/decisions', 'docs/quality'])('%s/README.md lists every topic file of its folder', (folder) => {
    const topics = readdirSync(path.join(repoRoot, folder)).filter(
      (name) => name.endsWith('.md') && name !== 'README.md',
    );
    expect(topics.length).toBeGreaterThan(5);
    const listed = new Set(linksOf(read(`${folder}/README.md`)).map((target) => target.split('#')[0]));
    expect(topics.filter((topic) => !listed.has(topic))).toEqual([]);
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

  // The one-file catalogues were split into topic folders: a citation names the topic file.
  it('cite the one-file catalogues of decisions and quality no more', () => {
    const gone = new RegExp(['docs/decisions', 'docs/quality'].map((name) => `${name}\\.md`).join('|'));
    const citing = [...sources, ...documents.map((document) => path.join(repoRoot, document))];
    const offending = citing.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) => (gone.test(line) ? [`${path.relative(repoRoot, file)}:${index + 1}`] : [])),
    );
    expect(offending).toEqual([]);
  });

  it('cite topic files of docs/decisions/ and docs/quality/ that exist, and their sections', () => {
    /** A topic file's headings, and for the quality catalogue its bold requirement names too. */
    const sectionsOf = (file: string) => {
      const markdown = readFileSync(file, 'utf8');
      return [
        ...[...markdown.matchAll(/^#{2,3} (.+)$/gm)].map((match) => match[1]!.trim()),
        ...[...markdown.matchAll(/^\*\*([^*]+)\*\*/gm)].map((match) => match[1]!.trim()),
      ];
    };
    const citing = [...sources, ...documents.map((document) => path.join(repoRoot, document))];
    const missing: string[] = [];
    for (const file of citing) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(
        /(?<![\w.-])(decisions|quality)\/([\w-]+)\.md(?:\s*(?:\*|\/\/|--|#)?\s*§ ?)?/g,
      )) {
        const topic = path.join(repoRoot, 'docs', match[1]!, `${match[2]!}.md`);
        const where = `${path.relative(repoRoot, file)}: ${match[1]}/${match[2]}.md`;
        if (!existsSync(topic)) {
          missing.push(where);
          continue;
        }
        if (!match[0].includes('§')) continue;
        const cited = citedAfter(text, match.index + match[0].length);
        if (!sectionsOf(topic).some((section) => cited.startsWith(section)))
          missing.push(`${where} § ${cited.slice(0, 40)}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
