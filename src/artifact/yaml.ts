// js-yaml 4.3.2, the parser GSD 1.14 reads frontmatter with (vendored there
// verbatim, as its `lib/vendor/js-yaml.cjs`): the same parser gives the same
// reading, error for error. Minified by build.mjs into this string and kept
// a string until a frontmatter gate needs it: V8 only scans a string literal,
// where the bundled functions would cost every gate parsing at start-up,
// whatever its kind.
declare const YAML_SOURCE: string;
declare const require: (id: string) => unknown;

// The part of js-yaml's interface that is used here (its own types are a
// separate package, and lag its options).
export interface JsYaml {
  load(text: string, options: LoadOptions): unknown;
  readonly FAILSAFE_SCHEMA: Schema;
  readonly Type: new (tag: string, options: { kind: 'scalar'; resolve: (data: string | null) => boolean; construct: (data: string) => unknown }) => unknown;
}
export interface Schema {
  extend(types: { implicit: unknown[] }): Schema;
}
export interface LoadOptions {
  readonly schema: Schema;
  readonly json: boolean;
  readonly listener?: (event: 'open' | 'close', state: { readonly anchor: string | null | undefined }) => void;
}
// What js-yaml throws for text it cannot read: the reason without the
// excerpt, and where (0-based).
export interface YamlError {
  readonly name: 'YAMLException';
  readonly reason: string;
  readonly mark?: { readonly line: number };
}

let loaded: JsYaml | undefined;

export function yaml(): JsYaml {
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
export function compileYaml(source: string): JsYaml {
  const module = { exports: {} as JsYaml };
  new Function('module', 'exports', 'require', source)(module, module.exports, require);
  return module.exports;
}
