import type * as Yaml from 'yaml';

// The yaml package, minified by build.mjs into this string. Kept as a string
// until a frontmatter gate needs it: V8 only scans a string literal, where
// 270 KB of bundled functions would cost every gate 5-9 ms of parsing at
// start-up, whatever its kind.
declare const YAML_SOURCE: string;
declare const require: (id: string) => unknown;

let loaded: typeof Yaml | undefined;

export function yaml(): typeof Yaml {
  loaded ??= compileYaml(yamlSource());
  return loaded;
}

// Also what a parsing thread compiles, handed over so that the thread's code
// carries no second copy. esbuild writes the string wherever YAML_SOURCE is
// named: here only.
export function yamlSource(): string {
  return YAML_SOURCE;
}

// The library's own code, fixed at build time: nothing from a predicate or
// an artifact is ever compiled here.
export function compileYaml(source: string): typeof Yaml {
  const module = { exports: {} as typeof Yaml };
  new Function('module', 'exports', 'require', source)(module, module.exports, require);
  return module.exports;
}
