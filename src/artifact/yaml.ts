import type * as Yaml from 'yaml';

// The yaml package, minified by build.mjs into this string. Kept as a string
// until a frontmatter gate needs it: V8 only scans a string literal, where
// 270 KB of bundled functions would cost every gate 5-9 ms of parsing at
// start-up, whatever its kind.
declare const YAML_SOURCE: string;
declare const require: (id: string) => unknown;

let loaded: typeof Yaml | undefined;

export function yaml(): typeof Yaml {
  if (loaded === undefined) {
    const module = { exports: {} as typeof Yaml };
    // The library's own code, fixed at build time: nothing from a predicate
    // or an artifact is ever compiled here.
    new Function('module', 'exports', 'require', YAML_SOURCE)(module, module.exports, require);
    loaded = module.exports;
  }
  return loaded;
}
