// What a release is made of, named once: the artefacts a build makes from
// the source (the bundle, and a standalone binary for each target), with
// where a built tree holds each, and the files the release folder adds to
// them. release.mjs builds and gathers them; install.md's offline rebuild
// must compare exactly the built ones (test/release/rebuild-steps.test.ts).
export const TARGETS = ['linux-x64', 'linux-arm64'];

// Where the release folder is written: beside the binaries, out of dist/.
export const RELEASE_DIR = 'out/release';

// Each artefact built from the source: its name in the release folder and
// its path in the tree that built it (build.mjs, build-bin.mjs).
export const BUILT = [
  { name: 'gsd-check', path: 'dist/gsd-check' },
  ...TARGETS.map((target) => ({ name: `gsd-check-${target}`, path: `out/gsd-check-${target}` })),
];

// The release folder's other files of a version: the npm package and the
// SBOM (made from the built tree), the source and the packages it builds
// from (a folder of tarballs, carried as one tar).
export const releaseNames = (name, version) => ({
  tarball: `${name}-${version}.tgz`,
  sbom: `${name}-${version}.cdx.json`,
  source: `${name}-${version}-source.tar.gz`,
  packages: `${name}-${version}-packages`,
});
