/**
 * docs/configuration.md, written from the configuration's schema (config.ts): each variable's
 * default and meaning live beside its rules, so the reference cannot drift from what the
 * server accepts. `npm run docs:config` writes the file; test/configuration-doc.test.ts fails
 * when the file differs from what this renders.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { format, resolveConfig } from 'prettier';
import { variables, type VariableDoc } from './config.ts';
import { repoRoot } from './server-root.ts';

export const configurationDocPath = path.join(repoRoot, 'docs/configuration.md');

const intro = `# Configuration

<!-- Written by \`npm run docs:config\` from apps/server/src/config.ts: edit the schema there, not this file. -->

All optional, as environment variables, read and checked in one place: the zod schema in
\`apps/server/src/config.ts\`, which gives each variable its default and its type. A value
that is not accepted stops the start with one line naming the variable and what it accepts,
e.g. \`Invalid configuration: PORT must be a whole number from 1 to 65535 (got "abc")\`, and a
non-zero exit. An empty variable counts as unset.
`;

const outro = `
Several processes or machines behind a load balancer (PostgreSQL, S3, Redis, nginx):
[deployment.md](deployment.md).
`;

interface Row {
  names: string[];
  default: string;
  meaning: string;
}

/** The table's rows in the schema's order: a variable that shares another's entry joins that row. */
function rows(): Row[] {
  const byName = new Map<string, Row>();
  const found: Row[] = [];
  for (const [name, schema] of Object.entries(variables.shape)) {
    const doc = (schema.meta() as { doc?: VariableDoc } | undefined)?.doc;
    // Set by npm, not by the person configuring the portal (INIT_CWD).
    if (doc === undefined) continue;
    if ('inRowOf' in doc) {
      const row = byName.get(doc.inRowOf);
      if (!row) throw new Error(`${name}: its entry is in the row of ${doc.inRowOf}, which must come before it`);
      row.names.push(name);
      continue;
    }
    const row = { names: [name], default: doc.default ?? '—', meaning: doc.meaning };
    byName.set(name, row);
    found.push(row);
  }
  return found;
}

/** The whole of docs/configuration.md, formatted as prettier formats it (the repository's format check). */
export async function renderConfigurationDoc(): Promise<string> {
  const entries = rows().map(
    (row) =>
      `## ${row.names.map((name) => `\`${name}\``).join(', ')}\n\n**Default:** ${row.default}\n\n${row.meaning}\n`,
  );
  // A heading's anchor as GitHub makes it: `A`, `B` -> a-b.
  const index = [
    '| variable | default |',
    '| --- | --- |',
    ...rows().map(
      (row) =>
        `| [${row.names.map((name) => `\`${name}\``).join(', ')}](#${row.names.join('-').toLowerCase()}) | ${row.default} |`,
    ),
  ].join('\n');
  const options = await resolveConfig(configurationDocPath);
  return format(`${intro}\n${index}\n\n${entries.join('\n')}${outro}`, {
    ...options,
    parser: 'markdown',
    filepath: configurationDocPath,
  });
}

if (import.meta.main) {
  writeFileSync(configurationDocPath, await renderConfigurationDoc());
  console.log(`wrote ${path.relative(repoRoot, configurationDocPath)}`);
}
