// Where the console build lives, apart from build.ts so serving it does not load esbuild.
export const CONSOLE_DIST = new URL('./dist/', import.meta.url).pathname;
