import type { NodePath, PluginObj, types } from '@babel/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import path from 'node:path';
import { lingui, linguiTransformerBabelPreset } from '@lingui/vite-plugin';
import babel from '@rolldown/plugin-babel';

/**
 * English ships in the code, compiled, not in a catalog (docs/decisions/languages.md § The web
 * app): after Lingui's macros, each message descriptor keeps its English (`descriptorFields:
 * 'message'`), and this plugin compiles that ICU text into the token array Lingui's runtime
 * interpolates, so English needs no catalog and no message parser in the browser. Every other
 * language's catalog holds the same ids and replaces it.
 *
 * It runs at the program's exit, after the macros have written their descriptors, each marked
 * with a `/** i18n *\/` comment: `i18n._({ id, message: "Hi {name}" })`, `<Trans {...{ id, message }} />`.
 */
function inlineEnglish({ types: t }: { types: typeof types }): PluginObj {
  const compiled = (message: string) => t.valueToNode(compileMessage(message));
  const isKey = (node: types.ObjectMember, name: string) =>
    node.type === 'ObjectProperty' && !node.computed && t.isIdentifier(node.key, { name });

  return {
    name: 'lingui-inline-english',
    visitor: {
      Program: {
        exit(program: NodePath<types.Program>) {
          program.traverse({
            ObjectExpression(path) {
              // Only the macros' descriptors, which they mark so: a toast's { id, message } stays as written.
              if (!path.node.leadingComments?.some((comment) => /\bi18n\b/.test(comment.value))) return;
              const members = path.node.properties.filter((node): node is types.ObjectProperty =>
                t.isObjectProperty(node),
              );
              const id = members.find((node) => isKey(node, 'id'));
              const message = members.find((node) => isKey(node, 'message'));
              if (id && message && t.isStringLiteral(id.value) && t.isStringLiteral(message.value)) {
                message.value = compiled(message.value.value) as types.Expression;
              }
            },
          });
        },
      },
    },
  };
}

/**
 * Lingui in Vite, for the web app's build and its tests alike: its macros through Babel (files
 * that import one only), the descriptors' English kept and compiled by the plugin above, and its
 * catalogs (PO files) compiled as they are imported. Before React's plugin: the macros first.
 */
export function linguiVitePlugins() {
  const configPath = path.resolve(import.meta.dirname, '../lingui.config.ts');
  // The native transform it recommends instead needs Node 22.19+ at install (docs/decisions/languages.md).
  process.env.LINGUI_SUPPRESS_BABEL_WARNING ??= '1';
  const preset = linguiTransformerBabelPreset({ descriptorFields: 'message' }, { configPath });
  // The preset's own shape: { preset: { plugins }, rolldown: { filter } }.
  const { plugins = [] } = preset.preset as { plugins?: unknown[] };
  const withInlineEnglish = { ...preset, preset: { plugins: [...plugins, inlineEnglish] } } as typeof preset;
  return [babel({ presets: [withInlineEnglish] }), lingui({ configPath })];
}
