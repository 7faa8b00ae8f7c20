// Types for changelog.mjs (plain JavaScript, run by release.mjs without a build).
export interface ChangelogSection {
  readonly name: string;
  readonly date: string | undefined;
  readonly body: string;
  readonly line: number;
}
export function readChangelog(text: string): { sections: ChangelogSection[]; links: Map<string, string> };
export function section(text: string, name: string): string | undefined;
export function changelogProblems(text: string): string[];
