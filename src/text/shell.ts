// A value as one word of a sh command line, whatever it holds: single
// quotes, each quote in it closed, escaped and reopened.
export const quoted = (value: string): string => `'${value.replace(/'/g, "'\\''")}'`;
