// Types for cli-tests.mjs (plain JavaScript, read by .ci/run and test/against-binary.mjs).
export declare const CLI_TESTS: readonly string[];
export declare const CLI_BUNDLES: readonly string[];
export declare function bundleOf(file: string): string;
