// What build.mjs reads, for the tests that build a copy of the checkout: a
// copy of these (with node_modules beside it) builds what the checkout does.
export const BUILD_INPUTS = ['src', 'schemas', 'release', 'build.mjs', 'build-id.mjs', 'tsconfig.json', 'package.json', 'package-lock.json', 'CHANGELOG.md'];
