// Types for figures.mjs (plain JavaScript, run by release.mjs without a build).
export interface Figures {
  readonly version: string;
  readonly date: string;
  readonly commit: string;
  readonly node: string;
  readonly npm: string;
  readonly cores: number;
  readonly files: readonly { readonly name: string; readonly size: string }[];
  readonly packages: { readonly file: string; readonly size: string; readonly count: number };
  readonly runtimes: readonly { readonly path: string; readonly size: string }[];
  readonly seconds: { readonly total: number; readonly rebuild: number };
}
export const FIGURES_PAGE: string;
export function size(bytes: number): string;
export function treeBytes(path: string): number;
export function figuresBlock(figures: Figures): string;
export function readFigures(page: string): { block: string; figures: Figures | undefined } | undefined;
export function writeFigures(path: string, figures: Figures): boolean;
export function hasFigureMarkers(page: string): boolean;
