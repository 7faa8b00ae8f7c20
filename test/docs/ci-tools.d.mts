// Types for ci-tools.mjs (plain JavaScript, shared with compat/).
export function missingTool(kind: string): string | undefined;
